/**
 * What sending one email over SMTP costs: the mail worker's deliverer (`EmailDeliverer.send`, the
 * message written out in MIME and sent over the pooled SMTP connections of SMTP_URL) against a
 * real SMTP server (`smtp-server`, reading each message and dropping it) in a process of its own,
 * so the CPU time of each side is its own. Sends a booking confirmation with its invite, 64 at a
 * time as the worker does, in rounds (the first a warm-up), and prints messages per second and the
 * CPU time per message of the sender and of the server.
 * Run: `bun bench/smtp-cost.ts` (BENCH_MESSAGES per round, default 2000; BENCH_ROUNDS, default 4).
 */
import { smtpSink } from "./lib.ts";
import { MAX_IN_FLIGHT } from "../packages/server/src/modules/outbox/worker.ts";
import { EmailDeliverer, smtpTransport } from "../packages/server/src/modules/mail/deliverer.ts";
import { emailEvents, type MailPayload } from "../packages/server/src/modules/mail/events.ts";
import { renderMail } from "../packages/server/src/modules/mail/render.ts";
import { SAMPLE_START, sampleEventType, sampleReservation } from "./mail-samples.ts";

if (process.env.SMTP_COST_SINK === "1") {
  // The server side: counts messages and answers its CPU time when asked on stdin.
  let messages = 0;
  const server = await smtpSink(() => messages++);
  console.log(`port ${server.port}`);
  let mark = process.cpuUsage();
  let counted = 0;
  for await (const chunk of Bun.stdin.stream()) {
    for (const command of new TextDecoder().decode(chunk).trim().split("\n")) {
      if (command === "mark") {
        mark = process.cpuUsage();
        counted = messages;
        console.log("marked");
      } else if (command === "report") {
        const used = process.cpuUsage(mark);
        console.log(JSON.stringify({ cpuUs: used.user + used.system, messages: messages - counted }));
      } else if (command === "stop") {
        void server.stop().then(() => process.exit(0));
      }
    }
  }
}

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const IN_FLIGHT = MAX_IN_FLIGHT;

const sink = Bun.spawn(["bun", import.meta.path], { env: { ...process.env, SMTP_COST_SINK: "1" }, stdin: "pipe", stdout: "pipe", stderr: "inherit" });
const lines = (async function* () {
  let buffer = "";
  for await (const chunk of sink.stdout) {
    buffer += new TextDecoder().decode(chunk);
    let end: number;
    while ((end = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
    }
  }
})();
const next = async () => (await lines.next()).value as string;
const port = Number((await next()).split(" ")[1]);
const ask = async (command: string) => {
  sink.stdin.write(`${command}\n`);
  sink.stdin.flush();
  return next();
};

const start = SAMPLE_START;
const eventType = sampleEventType();
const r = sampleReservation("en");
const [visitor] = emailEvents(
  { writes: true, sends: true, from: "Bookings <bookings@example.test>" } as never,
  eventType,
  "reservation.created",
  r,
  start - 86_400_000,
  "https://book.example.test/book/intro?reservation=x",
);
const mail = renderMail(JSON.parse(visitor!.payload) as MailPayload);

const deliverer = new EmailDeliverer(
  smtpTransport({ mail: { smtpUrl: `smtp://127.0.0.1:${port}?tls=ignore`, from: "Bookings <bookings@example.test>" } }) as never,
  "Bookings <bookings@example.test>",
  () => undefined,
);
console.log(`One confirmation with its invite, ${MESSAGES} per round, ${IN_FLIGHT} at a time, to an SMTP server (smtp-server) in another process:`);
for (let round = 0; round <= ROUNDS; round++) {
  await ask("mark");
  const cpu = process.cpuUsage();
  const began = performance.now();
  let sent = 0;
  let failed = 0;
  const worker = async () => {
    while (sent + failed < MESSAGES) {
      const n = sent + failed;
      sent++;
      const outcome = await deliverer.send(mail, `msg_${round}_${n}`);
      if (outcome.error !== null) {
        sent--;
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const seconds = (performance.now() - began) / 1000;
  const used = process.cpuUsage(cpu);
  const server = JSON.parse(await ask("report")) as { cpuUs: number; messages: number };
  if (round === 0) continue;
  console.log(
    `  round ${round}: ${(sent / seconds).toFixed(0)} messages/s; CPU per message: sender ${((used.user + used.system) / 1000 / sent).toFixed(3)} ms (MIME included, rendering not), SMTP server ${(server.cpuUs / 1000 / server.messages).toFixed(3)} ms; failed ${failed}`,
  );
}
deliverer.close();
sink.stdin.write("stop\n");
sink.stdin.flush();
await sink.exited;
