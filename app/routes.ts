import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("contact", "routes/contact.tsx"),
  route("do-not-sell", "routes/do-not-sell.tsx"),
  route("functions/v1/send-contact-email", "routes/api.send-contact-email.ts"),
] satisfies RouteConfig;
