/** A webhook receiver for tests: a Bun server on a free port that keeps every request's raw body and signature. */

/** One request the receiver got. */
export interface Received {
  body: string;
  signature: string | null;
  contentType: string | null;
}

/** A running receiver. */
export interface Receiver {
  url: string;
  received: Received[];
  /** The HTTP status the receiver answers from now on. */
  answer(status: number): void;
  stop(): Promise<void>;
}

/** Starts a receiver answering 200 until told otherwise. */
export function startReceiver(): Receiver {
  const received: Received[] = [];
  let status = 200;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      received.push({ body: await request.text(), signature: request.headers.get("stripe-signature"), contentType: request.headers.get("content-type") });
      return new Response(status < 300 ? "ok" : "no", { status });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/stripe/webhook`,
    received,
    answer: (next) => {
      status = next;
    },
    stop: () => server.stop(true),
  };
}

/** A local port with nothing listening on it, found by opening and closing a server. */
export async function closedPortUrl(): Promise<string> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port;
  await probe.stop(true);
  return `http://127.0.0.1:${port}/stripe/webhook`;
}
