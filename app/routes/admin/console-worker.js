// The console's service worker, scoped to /admin/: it shows operators' alerts (Web Push) and opens the
// console page an alert is about when it is tapped. It caches nothing: the console is always live.

self.addEventListener("push", (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch {
    alert = {};
  }
  const url = typeof alert.url === "string" && alert.url.startsWith("/admin") ? alert.url : "/admin";
  event.waitUntil(
    self.registration.showNotification(typeof alert.title === "string" ? alert.title : "New alert", {
      body: typeof alert.body === "string" ? alert.body : "",
      icon: "/favicon.svg",
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? "/admin", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((window) => window.url === target);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
