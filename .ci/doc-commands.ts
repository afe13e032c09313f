import type { Coverage } from "./markdown-commands.ts";

const CLI = "packages/server/test/admin-cli.test.ts";
const MAIN = "packages/server/test/main.test.ts";

/**
 * What runs each shell command of README.md and docs/*.md, by the command as the doc writes it
 * (blanks collapsed, comment dropped). A command missing here fails `.ci/docs.test.ts`: run it there
 * (`run`: the stage it runs in), name the test that runs it or its equivalent (`test`), or the script
 * (`script`). The shown strings are how the test passes the command's arguments.
 */
export const DOC_COMMANDS: Record<string, Coverage> = {
  // README.md: the two commands.
  "npm ci && npm start": {
    test: {
      file: MAIN,
      name: "seeds the demo on an empty database and prints tokens that work, with the Stripe stand-in for the paid one",
      shows: ["await start()", "Demo event types created"],
    },
  },
  "npm ci && npm test": { script: { file: ".ci/run", shows: ["npm ci --no-audit --no-fund", "npm test 2>&1"] } },

  // docs/getting-started.md
  'T=<API token of "Intro call">; B=http://localhost:3000': {
    test: {
      file: MAIN,
      name: "answers the getting-started guide's curl commands: the free slots of a week, then a booking of one",
      shows: ["docs/getting-started.md", '<API token of "Intro call">', "http://localhost:3000"],
    },
  },
  'curl -H "Authorization: Bearer $T" "$B/time-slots?from=$(date +%F)&until=$(date -d \'+7 days\' +%F)"': {
    test: {
      file: MAIN,
      name: "answers the getting-started guide's curl commands: the free slots of a week, then a booking of one",
      shows: ["docs/getting-started.md", "bash(set + query)"],
    },
  },
  'curl -H "Authorization: Bearer $T" -H "Content-Type: application/json" -X POST "$B/reservations" -d \'{"start":"<start>","end":"<end>","email":"ada@example.com", "customFields":[{"uuid":"6f1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b","value":"ACME"}]}\'':
    {
      test: {
        file: MAIN,
        name: "answers the getting-started guide's curl commands: the free slots of a week, then a booking of one",
        shows: ["docs/getting-started.md", '"<start>"', '"<end>"', "ada@example.com"],
      },
    },
  // The examples' scripts after their build step (the end-to-end tests build the element and the apps first).
  "npm run example:html": {
    test: {
      file: "e2e/tests/examples.spec.ts",
      name: "npm run example:html prints an address where a visitor books the demo's Intro call on a plain HTML page",
      shows: ['bookTheFreeDemo(page, "html"'],
    },
  },
  "npm run example:react": {
    test: {
      file: "e2e/tests/examples.spec.ts",
      name: "npm run example:react prints an address where a visitor books the demo's Intro call in the React app",
      shows: ['bookTheFreeDemo(page, "react"'],
    },
  },
  "npm run example:vue": {
    test: {
      file: "e2e/tests/examples.spec.ts",
      name: "npm run example:vue prints an address where a visitor books the demo's Intro call in the Vue app",
      shows: ['bookTheFreeDemo(page, "vue"'],
    },
  },

  // docs/admin.md
  "BOOKING_ADMIN_KEY=change-me npm start": {
    test: {
      file: MAIN,
      name: "starts as the production guide says: the admin API on with BOOKING_ADMIN_KEY, links on BOOKING_PUBLIC_URL",
      shows: ["BOOKING_ADMIN_KEY: KEY"],
    },
  },
  // The export alone does nothing to see: what it is for is the CLI run by npm with the key in its environment.
  "export BOOKING_ADMIN_KEY=change-me": {
    test: {
      file: CLI,
      name: "runs as npm run admin from the repository root",
      shows: ['runProcess("npm", ["run", "--silent", "admin"', "BOOKING_ADMIN_KEY: KEY"],
    },
  },
  "npm run admin -- help": { run: "repo", expect: /^Usage: npm run admin -- <command>/m },
  'npm run admin -- create --title "Strategy call" --timezone Europe/Prague --duration 30': {
    test: {
      file: CLI,
      name: "creates an event type and prints its tokens once, clearly",
      shows: ['cli("create", "--title", "Team sync", "--timezone", "Europe/Berlin", "--duration", "45"'],
    },
  },
  "npm run admin -- update <id> --language de": {
    test: {
      file: CLI,
      name: "sets the calendar's language with --language and gives it back to the visitor's browser with browser (the default of new event types)",
      shows: ['cli("update", id, "--language", "de-AT")', 'cli("update", id, "--language", "browser")'],
    },
  },
  "npm run admin -- update <id> --slug strategy-call": {
    test: {
      file: CLI,
      name: "gives the event type a booking page with --slug, shows its address and link token, and removes it with none",
      shows: ['cli("update", id, "--slug", "team-sync")'],
    },
  },
  "npm run admin -- hours <id> --day monday --ranges 09:00-12:00,13:00-17:00": {
    test: {
      file: CLI,
      name: "sets one weekday's hours, keeping the other days",
      shows: ['cli("hours", id, "--day", "monday", "--ranges", "09:00-12:00,13:00-17:00")'],
    },
  },
  "npm run admin -- close <id> --date 2026-12-24": {
    test: {
      file: CLI,
      name: "closes a date and opens another with its own hours, keeping the weekly hours",
      shows: ['cli("close", id, "--date", "2026-12-24")'],
    },
  },
  "npm run admin -- reservations <id> --from 2026-12-01 --until 2026-12-31": {
    test: {
      file: CLI,
      name: "lists reservations in a range, filtered by status",
      shows: ['cli("reservations", id, "--from", "2026-12-01", "--until", "2026-12-02")'],
    },
  },
  "npm run admin -- show <id>": { test: { file: CLI, name: "shows one event type's settings", shows: ['cli("show", id)'] } },
  "npm run admin -- token <id>": {
    test: { file: CLI, name: "issues a new API token: the old one stops working and the new one works", shows: ['cli("token", id)'] },
  },
  "npm run admin -- feed-token <id>": {
    test: { file: CLI, name: "shows the private booking feed's address, and gives it a new one with feed-token", shows: ['cli("feed-token", id)'] },
  },

  // docs/admin.md: hosts, schedules and teams
  "npm run admin -- hosts": { test: { file: CLI, name: "creates, shows, lists and changes hosts, refusing bad input", shows: ['cli("hosts")'] } },
  'npm run admin -- host-create --name "Sam Lee" --email sam@example.com --timezone Europe/Prague': {
    test: {
      file: CLI,
      name: "creates, shows, lists and changes hosts, refusing bad input",
      shows: ['cli("host-create", "--name", "Grace Hopper", "--email", "grace@example.com", "--timezone", "America/New_York"'],
    },
  },
  "npm run admin -- schedule-create <host-id> --name Afternoons --ranges 13:00-18:00": {
    test: {
      file: CLI,
      name: "keeps a host's schedules: create with weekday hours or a file, change a weekday, rename, delete",
      shows: ['cli("schedule-create", String(host.id), "--name", "Mornings", "--ranges", "08:00-12:00")'],
    },
  },
  // biome-ignore-start lint/suspicious/noTemplateCurlyInString: the test source it shows quotes a template literal.
  'npm run admin -- create --title "Team call" --host <host-id>:10 --host <other-host-id>@<schedule-id> --assignment round-robin': {
    test: {
      file: CLI,
      name: "makes a round-robin team event type, books it, lists the host's bookings across event types and attaches a calendar to a host",
      shows: ['cli("create", "--title", "Team call", "--host", `${ada.id}:10@${schedule.id}`, "--host", String(bob.id), "--assignment", "round-robin"'],
    },
  },
  // biome-ignore-end lint/suspicious/noTemplateCurlyInString: up to here.
  "npm run admin -- limits <id> --per-day 4 --minutes-per-week 600": {
    test: {
      file: CLI,
      name: "shows and sets an event type's booking limits, keeping those not named and removing one with none",
      shows: ['cli("limits", id, "--per-day", "4", "--minutes-per-week", "600")'],
    },
  },
  "npm run admin -- host-limits <host-id> --per-week 10 --minutes-per-day 240": {
    test: {
      file: CLI,
      name: "sets a host's booking limits across their event types",
      shows: ['cli("host-limits", String(host.id), "--per-week", "10", "--minutes-per-day", "240")'],
    },
  },
  'npm run admin -- time-off-add <host-id> --from 2026-12-21 --until 2026-12-31 --note "Back on 4 January" --colleague <other-host-id>': {
    test: {
      file: CLI,
      name: "marks days and ranges away with a colleague and a note, lists and removes them, and refuses bad input",
      shows: ['cli("time-off-add", alex, "--from", "2030-05-04", "--until", "2030-05-11", "--note", "Holiday", "--colleague", sam)'],
    },
  },
  "npm run admin -- time-off <host-id>": {
    test: {
      file: CLI,
      name: "marks days and ranges away with a colleague and a note, lists and removes them, and refuses bad input",
      shows: ['cli("time-off", alex)'],
    },
  },
  "npm run admin -- time-off-remove <host-id> <time-off-id>": {
    test: {
      file: CLI,
      name: "marks days and ranges away with a colleague and a note, lists and removes them, and refuses bad input",
      shows: ['cli("time-off-remove", alex, String(range.id))'],
    },
  },
  "npm run admin -- host-bookings <host-id> --from 2026-12-01 --until 2026-12-31": {
    test: {
      file: CLI,
      name: "makes a round-robin team event type, books it, lists the host's bookings across event types and attaches a calendar to a host",
      shows: ['cli("host-bookings", String(ada.id), "--from", from, "--until", until)'],
    },
  },
  "npm run admin -- host-calendar-add <host-id> webcal://calendar.example.com/sam.ics --kind ical": {
    test: {
      file: CLI,
      name: "makes a round-robin team event type, books it, lists the host's bookings across event types and attaches a calendar to a host",
      shows: ['cli("host-calendar-add", String(bob.id), url, "--kind", "ical")'],
    },
  },
  "npm run admin -- why <id> --start 2026-12-08T10:00:00+01:00": {
    test: {
      file: CLI,
      name: "makes a round-robin team event type, books it, lists the host's bookings across event types and attaches a calendar to a host",
      shows: ['cli("why", String(solo.id), "--start", soloStart)'],
    },
  },
  "npm run admin -- host-why <host-id> --start 2026-12-08T10:00:00+01:00 --event-type <id>": {
    test: {
      file: CLI,
      name: "makes a round-robin team event type, books it, lists the host's bookings across event types and attaches a calendar to a host",
      shows: ['cli("host-why", String(ada.id), "--start", soloStart, "--event-type", String(solo.id), "--json")'],
    },
  },
  "npm run admin -- host <host-id>": { test: { file: CLI, name: "creates, shows, lists and changes hosts, refusing bad input", shows: ['cli("host", id)'] } },

  // docs/calendars.md
  "npm run admin -- calendar-add <id> https://dav.example.com/ --user me --password app-password": {
    test: {
      file: CLI,
      name: "writes bookings into a CalDAV calendar of a source, shows it, and stops",
      shows: ['cli("calendar-add", id, cal, "--user", radicale.user, "--password", radicale.password)'],
    },
  },
  "npm run admin -- calendar-add <id> webcal://calendar.example.com/me/secret.ics --kind ical": {
    test: {
      file: CLI,
      name: "adds a calendar feed (synced at once), shows its status, reports a failing sync with exit 1, and removes it",
      shows: ['cli("calendar-add", id, url, "--kind", "ical"'],
    },
  },
  "npm run admin -- calendars <id>": {
    test: {
      file: CLI,
      name: "adds a calendar feed (synced at once), shows its status, reports a failing sync with exit 1, and removes it",
      shows: ['cli("calendars", id)'],
    },
  },
  "npm run admin -- calendar-sync <source-id>": {
    test: {
      file: CLI,
      name: "adds a calendar feed (synced at once), shows its status, reports a failing sync with exit 1, and removes it",
      shows: ['cli("calendar-sync", sourceId)'],
    },
  },
  "npm run admin -- calendar-remove <source-id>": {
    test: {
      file: CLI,
      name: "adds a calendar feed (synced at once), shows its status, reports a failing sync with exit 1, and removes it",
      shows: ['cli("calendar-remove", sourceId)'],
    },
  },
  "npm run admin -- calendar-write <source-id> [--calendar URL]": {
    test: {
      file: CLI,
      name: "writes bookings into a CalDAV calendar of a source, shows it, and stops",
      shows: ['cli("calendar-write", sourceId)', 'cli("calendar-write", sourceId, "--calendar"'],
    },
  },
  "npm run admin -- calendar-write-stop <source-id>": {
    test: { file: CLI, name: "writes bookings into a CalDAV calendar of a source, shows it, and stops", shows: ['cli("calendar-write-stop", sourceId)'] },
  },

  // docs/payments.md
  "npm run admin -- update <id> --price 50.00 --currency eur --account acct_123": {
    test: {
      file: CLI,
      name: "creates an event type and prints its tokens once, clearly",
      shows: ['"--price", "50.00", "--currency", "eur", "--account", "acct_cli"'],
    },
  },

  // docs/webhooks.md
  "npm run admin -- webhook <id> https://hooks.example.com/booking": {
    test: {
      file: CLI,
      name: "sets the webhook URL, saying how receivers verify without showing the signing secret again, and removes it with none",
      shows: ['cli("webhook", id, "https://hooks.example.com/booking")'],
    },
  },
  "npm run admin -- deliveries <id>": {
    test: { file: CLI, name: "lists webhook deliveries of a booking made through the public API", shows: ['cli("deliveries", hookId)'] },
  },
  "npm run admin -- webhook-secret <id>": {
    test: { file: CLI, name: "rotates the webhook secret, printing the new one this once", shows: ['cli("webhook-secret", id)'] },
  },
  "npm run admin -- webhook <id> none": {
    test: {
      file: CLI,
      name: "sets the webhook URL, saying how receivers verify without showing the signing secret again, and removes it with none",
      shows: ['cli("webhook", id, "none")'],
    },
  },

  // docs/production.md
  "openssl rand -base64 32": { run: "repo", expect: /^[A-Za-z0-9+/]{43}=\n$/ },
  "BOOKING_ENV=production BOOKING_PUBLIC_URL=https://book.example.com BOOKING_ADMIN_KEY=<admin key> BOOKING_SECRET_KEY=<secret key> npm start": {
    test: {
      file: MAIN,
      name: "starts as the production guide says: the admin API on with BOOKING_ADMIN_KEY, links on BOOKING_PUBLIC_URL",
      shows: ['BOOKING_ENV: "production"', 'BOOKING_PUBLIC_URL: "https://book.example.com"', "BOOKING_ADMIN_KEY: KEY", "BOOKING_SECRET_KEY: secretKey"],
    },
  },
  "DATABASE_URL=postgres://booking@db.example.com:5432/booking npm start": {
    test: {
      file: "packages/server/test/pg-instances.test.ts",
      name: "books 200 simultaneous requests for 200 distinct free slots through two instances without refusing one, even while one booking is slow",
      shows: ["await instances(2"],
    },
  },
  'sqlite3 data/booking.sqlite ".backup data/booking-backup.sqlite"': { run: "sqlite" },
  'pg_dump --format=custom --file=booking.dump "$DATABASE_URL"': { run: "postgres" },
  'pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" booking.dump': { run: "postgres" },

  // e2e/README.md and the packages' READMEs
  "npm test -w @booking/e2e": { script: { file: "package.json", shows: ["npm test --workspaces --if-present"] } },
  'npx playwright test -c e2e/playwright.config.ts -g "keyboard"': {
    test: {
      file: "e2e/tests/states.spec.ts",
      name: "keyboard only: from the page's first Tab to the success screen, focus always where the visitor is",
      shows: [],
    },
  },
  "npm install @booking/calendar": {
    test: {
      file: "packages/booking-calendar/test/package.spec.ts",
      name: "is publishable, its packed tarball type-checks in a fresh React and Vue app with skipLibCheck false, and both apps built by Vite book a paid event type",
      shows: ["typeCheck("],
    },
  },
};
