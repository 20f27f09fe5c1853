/**
 * A console form's body, read only up to a size (a spend CSV upload included): a larger body is refused before
 * it is parsed, whether or not it declared its length.
 */
export async function readBoundedForm(request: Request, maxBytes: number): Promise<FormData | "too-large"> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) return "too-large";
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > maxBytes) return "too-large";
      chunks.push(chunk);
    }
  }
  const headers = { "Content-Type": request.headers.get("content-type") ?? "application/x-www-form-urlencoded" };
  return new Response(Buffer.concat(chunks), { headers }).formData();
}
