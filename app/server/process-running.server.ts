/**
 * Whether a process with this id runs on this machine: one that exists but belongs to another user (EPERM) runs
 * too. A process id may be reused after its process ends; callers that must tell them apart compare more.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
