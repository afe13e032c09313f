/**
 * Addresses on either side of the one email rule (`EMAIL_PATTERN`), read by the server's tests and
 * the element's, so both check the same examples against the same rule: what the form lets through
 * the server takes, and what the form refuses the server refuses with `invalid_email`. No surrounding
 * spaces here: the form trims what the visitor typed, the API takes the value as sent.
 */
export const EMAIL_SAMPLES = {
  accepted: [
    "ada@example.org",
    "a.b+c@sub.example.co",
    "o'brien@example.ie",
    // Stricter patterns (Elysia's own `email` format) refuse these three.
    "jürgen@example.de",
    "ada@exa_mple.org",
    "用户@例子.广告",
  ],
  refused: [
    "ada@example",
    "ada example@x.org",
    "<ada>@x.org",
    "@x.org",
    "ada@@example.org",
    "ada.example.org",
    "ada@exam,ple.org",
    '"ada"@example.org',
    "ada@example.org;bob@example.org",
    // Control characters: C0 (NUL, BEL, ESC), DEL and C1 (NEL, APC), on either side of the `@`.
    "ada\u0000@example.org",
    "ad\u0007a@example.org",
    "ada@exam\u001bple.org",
    "ada\u007f@example.org",
    "ada@example\u0085.org",
    "a\u009fda@example.org",
  ],
} as const;
