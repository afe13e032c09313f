/**
 * `npm run dev`: the demo page of `npm start` with the element served from source by Vite, so every
 * change reloads the page. Starts Vite, then the booking server pointed at it (BOOKING_DEV_CALENDAR_URL).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";

const calendar = fileURLToPath(new URL("..", import.meta.url));
const repo = fileURLToPath(new URL("../../..", import.meta.url));

const vite = await createServer({ root: calendar, configFile: false, server: { port: 5173, host: "127.0.0.1", cors: true } });
await vite.listen();
const viteUrl = vite.resolvedUrls?.local[0] ?? "http://127.0.0.1:5173/";

const server = spawn(process.execPath, ["packages/server/src/main.ts"], {
  cwd: repo,
  stdio: "inherit",
  env: { ...process.env, BOOKING_DEV_CALENDAR_URL: viteUrl },
});
console.log(`Element from source through Vite at ${viteUrl}; open the server's demo page (default http://localhost:3000/).`);

const stop = async () => {
  server.kill("SIGTERM");
  await vite.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => {
  void vite.close().then(() => process.exit(code ?? 0));
});
