/**
 * Every performance budget, defined once: `npm run size` (scripts/size.ts), `npm run bench` (scripts/bench.ts) and
 * test/e2e/budgets.slow.test.ts read them here, and the README quotes them. The journeys run on Slow 3G (400 kbit/s,
 * 400 ms RTT, test/helpers/e2e-measure.ts).
 */

/** First screen of /login: the page, what it links and preloads, and the German dictionary, in brotli bytes. */
export const FIRST_SCREEN_BYTES = 30 * 1024;
/**
 * How deep the chain of requests before the login form is usable may be: 2 = the page, then only what the page
 * itself names (stylesheet, entry script, the chunks it modulepreloads, dictionary), all fetched at once.
 */
export const FIRST_SCREEN_CHAIN_DEPTH = 2;
/** Requests before the login form is usable: the page, its stylesheet, its script and the dictionary (favicon apart). */
export const FIRST_SCREEN_REQUESTS = 4;
/** Press "Anmelden" -> dashboard settled (median of cold runs). */
export const LOGIN_TO_DASHBOARD_MS = 3000;
/*
 * "Mein Tag" reads the day evaluations of the patients with recent app data after the dashboard has drawn, to flag a
 * worsening (client/features/dashboard/my-day/worsening.ts: at most 12 per visit, 4 at a time, kept until the
 * patient's data changes). Those background reads are budgeted apart from the dashboard's own figures.
 */
export const DASHBOARD_CALLS = 4;
export const DAY_EVALUATION_READS = 12;
/** Every request from "Anmelden" to the settled dashboard, all of them to the API (the scripts were fetched while the coach typed). */
export const LOGIN_TO_DASHBOARD_REQUESTS = 12 + DAY_EVALUATION_READS;
/** Dashboard -> a patient's page settled (median of cold runs). */
export const DASHBOARD_TO_PATIENT_MS = 1500;
/** Cumulative layout shift of every screen, at 375 and at 1280 px. */
export const CLS = 0.1;
/** The gateway serves a static asset at least at this share of nginx's requests per second. */
export const STATIC_SHARE_OF_NGINX = 0.5;
/** A small authenticated GET through the gateway reaches at least this share of the upstream's requests/s direct, side by side. */
export const GATEWAY_SHARE_OF_UPSTREAM = 0.6;
/**
 * The patient list with 5,000 patients on a phone-class CPU (4x throttling): after the search box's input pause, the
 * matching rows are on the screen within this time.
 */
export const PATIENT_FILTER_AFTER_PAUSE_MS = 100;
