import type { AppContext } from "../../context.ts";
import { ApiError } from "../../http/errors.ts";
import { HOST_SIGN_IN_LINK_MS } from "../console/service.ts";
import { EmailDeliverer, smtpTransport } from "../mail/deliverer.ts";
import { DEFAULT_ACCENT, messageHtml, messageText } from "../mail/template.ts";

/**
 * Emails a host their one-time console sign-in link over SMTP_URL, as the server's other emails go.
 * Without SMTP_URL, development logs the link instead (`sent: false`), whole in the log line's `link`
 * so it can be opened; production refuses (503), since the link could reach nobody.
 */
export async function sendSignInLink(
  ctx: AppContext,
  host: { name: string; email: string | null },
  url: string,
): Promise<{ sent: boolean; error: string | null }> {
  const transport = smtpTransport(ctx.config);
  if (!transport) {
    if (ctx.config.environment === "production") {
      throw new ApiError("service_unavailable", "No SMTP_URL is set, so the sign-in link cannot be emailed.", {
        headers: { "retry-after": "3600" },
        hint: "Set SMTP_URL (and MAIL_FROM) and restart the server.",
      });
    }
    // The message's URLs are redacted like every other; the link rides in the one field printed whole.
    ctx.log({
      level: "info",
      message: `console sign-in link for host ${host.name} <${host.email}> (not emailed, no SMTP_URL), in "link"`,
      developmentLink: url,
    });
    return { sent: false, error: null };
  }
  const hours = Math.round(HOST_SIGN_IN_LINK_MS / 3_600_000);
  const content = {
    language: "en",
    brand: "Booking Calendar",
    accent: DEFAULT_ACCENT,
    greeting: `Hello ${host.name},`,
    lines: [
      `Use the button below to sign in to the booking console, where you see your bookings and manage your schedules and calendars.`,
      `The link works once, within ${hours} hours. If you did not expect it, ignore this email.`,
    ],
    rows: [] as [string, string][],
    buttons: [{ label: "Sign in to the console", url }],
    closing: "Booking Calendar",
  };
  const deliverer = new EmailDeliverer(transport, ctx.config.mail.from, ctx.log);
  try {
    const outcome = await deliverer.send(
      { to: host.email!, subject: "Your sign-in link to the booking console", text: messageText(content), html: messageHtml(content) },
      crypto.randomUUID(),
    );
    return { sent: outcome.error === null, error: outcome.error };
  } finally {
    deliverer.close();
  }
}
