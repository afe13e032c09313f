/** An absolute URL inside a text: a scheme, `://`, then up to the next space, quote or angle bracket. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/**
 * The URL as it may be shown in an error or a log line: scheme, host and path only. A user name
 * and password, a query (feeds carry their token as `?token=...`) and a fragment are dropped,
 * since error texts are stored in a source's status and logs are read by more people than the
 * organizer. A text that does not parse as a URL is cut at its first `?`, `#` or `@`-ended userinfo.
 */
export function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.host === "") return value.replace(/[?#].*$/s, "");
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1").replace(/[?#].*$/s, "");
  }
}

/**
 * The text with every URL in it redacted as `redactUrl` does; the rest left as it is. Punctuation
 * that ends a URL (`cannot read <url>: ...`) is taken as the sentence's, not the URL's.
 */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    const [, url = found, punctuation = ""] = /^(.*?)([.,:;!?)\]]*)$/s.exec(found) ?? [];
    return redactUrl(url) + punctuation;
  });
}
