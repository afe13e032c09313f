/** Text for HTML: every character that could end an attribute or start a tag, as a numeric entity. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
