import { calendarMultiGet, calendarQuery, createAccount, fetchCalendars, type DAVCalendar, type DAVResponse } from "tsdav";
import type { BusyObject, BusySourceRecord } from "../../store/busy.ts";
import { pinnedRequest, resolveTarget } from "../webhooks/address.ts";

/** The fetch the calendar clients use: `fetch`'s call signature. */
export type CalendarFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A calendar that does not answer a request within this long fails the sync (its last good data stays). */
const TIMEOUT_MS = 30_000;
/** Redirects followed (each target judged again) before giving up. */
const MOST_REDIRECTS = 5;
/**
 * Tries of an idempotent request whose connection drops (is reset or closed) before any answer, and
 * the pause before each try after the first. A server closes an idle keep-alive connection when it
 * likes; a request sent on it just then fails although the server is well, and Bun's fetch tries
 * such a request again by itself for GET only, not for CalDAV's PROPFIND and REPORT.
 */
export const FETCH_TRIES = 3;
const RETRY_PAUSES_MS = [100, 400];
/** Methods that change nothing on the server, so a request that may have reached it can be sent again. */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PROPFIND", "REPORT"]);

/** Largest feed accepted, in bytes. */
export const MAX_FEED_BYTES = 20 * 1024 * 1024;
/** Largest CalDAV answer read (one PROPFIND or REPORT), in bytes: the feeds' limit. */
export const MAX_CALDAV_BYTES = MAX_FEED_BYTES;

/**
 * `fetch` behind the guard the webhook sender uses: the host is resolved once, every address judged
 * (loopback, link-local and private ones refused unless `allowPrivate`), and the request connects to
 * the judged address itself, so a name cannot answer the check and the connection differently.
 * Redirects are followed here, each target judged the same way (a request asking for `manual`
 * redirects gets them as they are). The lookup has the webhooks' DNS timeout, each request (each
 * hop) TIMEOUT_MS, and a caller's `signal` (a sync's deadline) ends either sooner. An idempotent
 * request (GET, PROPFIND, REPORT, ...) whose connection drops before any answer is sent again on a
 * new connection, FETCH_TRIES in all; one refused, timed out or aborted is not.
 */
export function guardedFetch(allowPrivate: boolean): CalendarFetch {
  return async (input, init = {}) => {
    let url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    let method = init.method ?? "GET";
    let body = init.body;
    // Credentials go only to the origin they were given for: a redirect elsewhere (or down to plain
    // http) would hand the organizer's calendar password or token to another server.
    const firstOrigin = new URL(url).origin;
    let credentials = true;
    for (let hop = 0; hop <= MOST_REDIRECTS; hop++) {
      const parsed = new URL(url);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`${parsed.protocol} URLs cannot be fetched`);
      const target = await resolveTarget(url, allowPrivate, init.signal ?? undefined);
      if ("refused" in target) throw new Error(`refused: ${parsed.host} points to the non-public address ${target.refused}`);
      const pinned = pinnedRequest(url, target.addresses[0]!);
      const headers = new Headers(init.headers);
      if (!credentials) {
        headers.delete("authorization");
        headers.delete("cookie");
      }
      headers.set("host", pinned.host);
      const tries = IDEMPOTENT_METHODS.has(method.toUpperCase()) && replayable(body) ? FETCH_TRIES : 1;
      let response: Response | undefined;
      for (let attempt = 1; !response; attempt++) {
        const timeout = AbortSignal.timeout(TIMEOUT_MS);
        try {
          response = await fetch(pinned.url, {
            method,
            headers,
            body,
            redirect: "manual",
            signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
            // A try again goes on a new connection, not on another pooled one the server may have closed.
            ...(attempt > 1 ? { keepalive: false } : {}),
            ...(pinned.serverName ? { tls: { serverName: pinned.serverName } } : {}),
          } as RequestInit);
        } catch (error) {
          if (timeout.aborted && !init.signal?.aborted) throw new Error(`${parsed.host} did not answer within ${TIMEOUT_MS / 1000} s`);
          if (init.signal?.aborted || !droppedBeforeAnswer(error)) throw error;
          if (attempt >= tries) throw tries > 1 ? new Error(`${method} ${url} failed ${tries} times: ${networkMessage(error)}`) : error;
          await pause(RETRY_PAUSES_MS[attempt - 1] ?? RETRY_PAUSES_MS[RETRY_PAUSES_MS.length - 1]!, init.signal ?? undefined);
        }
      }
      const location = response.headers.get("location");
      if (init.redirect === "manual" || response.status < 300 || response.status > 399 || !location) return response;
      const next = new URL(location, url);
      if (parsed.protocol === "https:" && next.protocol === "http:") throw new Error(`refused: a redirect from https to plain http (${next.host})`);
      if (next.origin !== firstOrigin) credentials = false;
      url = next.href;
      if (response.status === 303) {
        method = "GET";
        body = undefined;
      }
    }
    throw new Error(`more than ${MOST_REDIRECTS} redirects`);
  };
}

/** Whether a request body can be sent again as it is (a stream is read once). */
function replayable(body: RequestInit["body"]): boolean {
  return (
    body === undefined ||
    body === null ||
    typeof body === "string" ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof URLSearchParams
  );
}

/** Error codes of a connection that closed or was reset under a request (Bun's, and undici's). */
const DROPPED_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "ConnectionClosed", "UND_ERR_SOCKET"]);

/**
 * Whether fetch failed because the connection dropped before any answer. A connection refused, a
 * name or certificate error, a timeout or an abort is not that: trying again would meet it again.
 */
function droppedBeforeAnswer(error: unknown): boolean {
  if (!(error instanceof Error) || error.name === "AbortError" || error.name === "TimeoutError") return false;
  return DROPPED_CODES.has(String((error as { code?: unknown }).code ?? "")) || /closed unexpectedly|socket hang up|other side closed/i.test(error.message);
}

/** A network error's message without Bun's hint about its `verbose` option. */
function networkMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*For more information, pass `verbose: true`.*$/s, "");
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const aborted = () => (clearTimeout(timer), reject(signal!.reason));
    const timer = setTimeout(() => (signal?.removeEventListener("abort", aborted), resolve()), ms);
    signal?.addEventListener("abort", aborted, { once: true });
  });
}

/** The authentication headers of a source: Basic with a user name, Bearer with a token alone. */
export function authHeaders(source: Pick<BusySourceRecord, "username" | "secret">): Record<string, string> {
  if (source.username !== null) return { authorization: `Basic ${Buffer.from(`${source.username}:${source.secret ?? ""}`).toString("base64")}` };
  if (source.secret !== null) return { authorization: `Bearer ${source.secret}` };
  return {};
}

/** What a fetch of a source found: changes against the stored objects, and the state to keep. */
export interface FetchedChanges {
  syncState: Record<string, string>;
  upserts: BusyObject[];
  deletes: string[];
  /** Calendar objects whose text was downloaded (a measure of how incremental the sync was). */
  downloaded: number;
  /** Calendars the source reads, by URL (CalDAV), for the admin's view. */
  calendars: string[];
}

/** Objects asked for in one calendar-multiget. */
const MULTIGET_BATCH = 200;

/** Throws unless the answer was a WebDAV multistatus (tsdav answers a failed request as one response with its raw body). */
function multistatus(responses: DAVResponse[], url: string): void {
  // A parsed multistatus keeps the parsed document in `raw`; a failed or non-XML answer, its text.
  const failed = responses.find((r) => typeof r.raw === "string");
  if (failed) throw new Error(`${url} answered HTTP ${failed.status ?? "?"}${failed.statusText ? ` ${failed.statusText}` : ""}`);
}

const trailingSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);

/**
 * A fetch whose answers are read through a byte limit, whatever length they declare: past it the
 * body fails to read and its connection is closed, and every later request fails at once.
 * `tooLarge` keeps the first such failure, since a client library may catch it and fail with another
 * error, or go on without that answer.
 */
export function limitedFetch(fetchFn: CalendarFetch, limit: number): { fetch: CalendarFetch; tooLarge: () => Error | null } {
  let tooLarge: Error | null = null;
  const fetch: CalendarFetch = async (input, init) => {
    // One answer past the limit ends the work: no other request is sent (a library trying other URLs).
    if (tooLarge) throw tooLarge;
    const response = await fetchFn(input, init);
    // A 204 or 304 has no body, and a Response cannot be built around one for them.
    if (!response.body || response.status === 204 || response.status === 304) return response;
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const fail = () => (tooLarge ??= new Error(`the answer to ${init?.method ?? "GET"} ${url} is larger than ${limit} bytes`));
    if (Number(response.headers.get("content-length") ?? "0") > limit) {
      await response.body.cancel().catch(() => undefined);
      throw fail();
    }
    let size = 0;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size > limit) controller.error(fail());
          else controller.enqueue(chunk);
        },
      }),
    );
    const limited = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // tsdav names a failed answer by its URL.
    Object.defineProperty(limited, "url", { value: response.url });
    return limited;
  };
  return { fetch, tooLarge: () => tooLarge };
}

/** Runs CalDAV requests with every answer read through MAX_CALDAV_BYTES; one past it fails the whole with that reason. */
async function withinLimit<T>(fetchFn: CalendarFetch, work: (fetchFn: CalendarFetch) => Promise<T>): Promise<T> {
  const limited = limitedFetch(fetchFn, MAX_CALDAV_BYTES);
  let result: T;
  try {
    result = await work(limited.fetch);
  } catch (error) {
    throw limited.tooLarge() ?? error;
  }
  const tooLarge = limited.tooLarge();
  if (tooLarge) throw tooLarge;
  return result;
}

/** The calendars of a CalDAV source: discovered from the URL (a server, principal or calendar), then narrowed to the chosen ones. */
export function discoverCalendars(source: BusySourceRecord, fetchFn: CalendarFetch): Promise<DAVCalendar[]> {
  return withinLimit(fetchFn, (limited) => discover(source, limited));
}

async function discover(source: BusySourceRecord, fetchFn: CalendarFetch): Promise<DAVCalendar[]> {
  const headers = authHeaders(source);
  const account = await createAccount({ account: { serverUrl: source.url, accountType: "caldav" }, headers, fetch: fetchFn as typeof fetch });
  if (!account.homeUrl) throw new Error("no calendar home found at this URL");
  const all = (await fetchCalendars({ account, headers, fetch: fetchFn as typeof fetch })).filter((c) => !c.components || c.components.includes("VEVENT"));
  const chosen = new Set(source.calendars.map(trailingSlash));
  if (chosen.size > 0) {
    const picked = all.filter((c) => chosen.has(trailingSlash(c.url)));
    if (picked.length === 0) throw new Error("none of the chosen calendars exists any more");
    return picked;
  }
  // A URL inside the calendar home names one calendar, which must exist (a calendar deleted on the
  // server is a failure, never a silent switch to the account's other calendars); any other URL
  // (server, principal, the home itself) means all of them.
  const asked = trailingSlash(new URL(source.url).href);
  const home = trailingSlash(new URL(account.homeUrl, source.url).href);
  if (asked !== home && asked.startsWith(home)) {
    const own = all.filter((c) => trailingSlash(c.url) === asked);
    if (own.length === 0) throw new Error("no calendar exists at this URL");
    return own;
  }
  if (all.length === 0) throw new Error("the account has no calendar with events");
  return all;
}

/**
 * The changes of a CalDAV source since the stored state: a calendar whose ctag is unchanged is not
 * read at all; another is listed with ETags only, and just the objects whose ETag changed are
 * downloaded (calendar-multiget). Objects of calendars no longer read are dropped. Every answer is
 * read through MAX_CALDAV_BYTES; one past it fails the sync.
 */
export function fetchCalDav(source: BusySourceRecord, stored: readonly Pick<BusyObject, "href" | "etag">[], fetchFn: CalendarFetch): Promise<FetchedChanges> {
  return withinLimit(fetchFn, (limited) => changesOf(source, stored, limited));
}

async function changesOf(source: BusySourceRecord, stored: readonly Pick<BusyObject, "href" | "etag">[], fetchFn: CalendarFetch): Promise<FetchedChanges> {
  const headers = authHeaders(source);
  const calendars = await discover(source, fetchFn);
  const syncState: Record<string, string> = {};
  const upserts: BusyObject[] = [];
  const deletes: string[] = [];
  const seen = new Set<string>();
  let downloaded = 0;
  const storedEtag = new Map(stored.map((o) => [o.href, o.etag]));
  for (const calendar of calendars) {
    const base = trailingSlash(calendar.url);
    const ctagKey = `ctag ${base}`;
    const ctag = calendar.ctag ?? calendar.syncToken ?? null;
    const storedHere = stored.filter((o) => o.href.startsWith(base));
    if (ctag !== null && source.syncState[ctagKey] === ctag) {
      // Unchanged collection: what is stored of it stays.
      syncState[ctagKey] = ctag;
      for (const o of storedHere) seen.add(o.href);
      continue;
    }
    const listed = await calendarQuery({
      url: calendar.url,
      props: { "d:getetag": {} },
      filters: [{ "comp-filter": { _attributes: { name: "VCALENDAR" }, "comp-filter": { _attributes: { name: "VEVENT" } } } }],
      depth: "1",
      headers,
      fetch: fetchFn as typeof fetch,
    });
    multistatus(listed, calendar.url);
    const etags = new Map<string, string | null>();
    for (const r of listed) {
      if (!r.href || !r.ok) continue;
      const href = new URL(r.href, base).href;
      if (trailingSlash(href) === base) continue;
      etags.set(href, r.props?.getetag == null ? null : String(r.props.getetag));
    }
    const changed = [...etags].filter(([href, etag]) => etag === null || storedEtag.get(href) !== etag).map(([href]) => href);
    for (const href of etags.keys()) seen.add(href);
    for (let i = 0; i < changed.length; i += MULTIGET_BATCH) {
      const batch = changed.slice(i, i + MULTIGET_BATCH);
      const got = await calendarMultiGet({
        url: calendar.url,
        props: { "d:getetag": {}, "c:calendar-data": {} },
        objectUrls: batch.map((href) => new URL(href).pathname),
        depth: "1",
        headers,
        fetch: fetchFn as typeof fetch,
      });
      multistatus(got, calendar.url);
      for (const r of got) {
        const data: unknown = r.props?.calendarData?._cdata ?? r.props?.calendarData;
        if (!r.href || typeof data !== "string") continue;
        const href = new URL(r.href, base).href;
        downloaded++;
        upserts.push({ href, etag: r.props?.getetag == null ? (etags.get(href) ?? null) : String(r.props.getetag), ics: data });
      }
    }
    if (ctag !== null) syncState[ctagKey] = ctag;
  }
  for (const o of stored) if (!seen.has(o.href)) deletes.push(o.href);
  return { syncState, upserts, deletes, downloaded, calendars: calendars.map((c) => c.url) };
}

/**
 * The changes of an iCalendar feed: asked with the stored ETag and Last-Modified, so an unchanged
 * feed answers 304 and nothing is downloaded; else the whole feed is the source's one object.
 */
export async function fetchFeed(
  source: BusySourceRecord,
  stored: readonly Pick<BusyObject, "href" | "etag">[],
  fetchFn: CalendarFetch,
): Promise<FetchedChanges> {
  const headers: Record<string, string> = { accept: "text/calendar", ...authHeaders(source) };
  if (source.syncState.etag && stored.length > 0) headers["if-none-match"] = source.syncState.etag;
  if (source.syncState.lastModified && stored.length > 0) headers["if-modified-since"] = source.syncState.lastModified;
  const response = await fetchFn(source.url, { headers });
  if (response.status === 304) return { syncState: source.syncState, upserts: [], deletes: [], downloaded: 0, calendars: [] };
  if (!response.ok) throw new Error(`the feed answered HTTP ${response.status}`);
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_FEED_BYTES) throw new Error(`the feed is larger than ${MAX_FEED_BYTES} bytes`);
  const text = await boundedText(response, MAX_FEED_BYTES);
  if (!/^\s*BEGIN:VCALENDAR/i.test(text)) throw new Error("the feed is not iCalendar data (no BEGIN:VCALENDAR)");
  const syncState: Record<string, string> = {};
  const etag = response.headers.get("etag");
  const lastModified = response.headers.get("last-modified");
  if (etag) syncState.etag = etag;
  if (lastModified) syncState.lastModified = lastModified;
  return {
    syncState,
    upserts: [{ href: source.url, etag, ics: text }],
    deletes: stored.filter((o) => o.href !== source.url).map((o) => o.href),
    downloaded: 1,
    calendars: [],
  };
}

/**
 * A response's text, read as it streams and given up (the connection closed) once it passes
 * `limit` bytes, so a server that sends no length, or lies about it, cannot fill the memory.
 */
export async function boundedText(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the feed is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
