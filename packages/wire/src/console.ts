import { oneOf } from "./literals.ts";
import { Type, type Static } from "@sinclair/typebox";
import { SESSION_ROLES } from "./constants.ts";
import { Nullable } from "./event-type-views.ts";

/** Who is signed in to the console, as `/console/session` answers and `GET /admin/sessions` lists: never the session's secret. */
export const SessionView = Type.Object({
  id: Type.String({ format: "uuid" }),
  role: oneOf(SESSION_ROLES, { description: "admin: the organizer (admin key or development link); host: one host, limited to its own data." }),
  hostId: Nullable(Type.Integer(), { description: "The host of a `host` session." }),
  method: Type.Union([Type.Literal("key"), Type.Literal("link")], { description: "How it was opened: with the admin key or a one-time link." }),
  createdAt: Type.String({ format: "date-time" }),
  expiresAt: Type.String({ format: "date-time" }),
  lastSeenAt: Type.String({ format: "date-time" }),
  address: Type.String({ description: "The client address it signed in from." }),
  userAgent: Type.String(),
});
export type SessionView = Static<typeof SessionView>;

/** Body of the console's sign-in: the admin key, or the secret of a one-time sign-in link. */
export const ConsoleSignInBody = Type.Object(
  { adminKey: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })), link: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);
export type ConsoleSignInBody = Static<typeof ConsoleSignInBody>;

/** Answer of `POST /admin/hosts/{hostId}/sign-in-link`: where the link went and until when it works. */
export const SignInLinkSent = Type.Object({
  hostId: Type.Integer(),
  email: Type.String(),
  expiresAt: Type.String({ format: "date-time" }),
  sent: Type.Boolean({ description: "False when the server sends no mail (development): the link is then in the server's log." }),
});
export type SignInLinkSent = Static<typeof SignInLinkSent>;
