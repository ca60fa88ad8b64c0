// Drives the real ui-bridge companion page in Debian's chromium.
//
// Started by tests/tests/web_ui.rs, which runs a real `ui-bridge serve --web`
// in a private home and passes, in the environment:
//   EA_WEB_URL    the login URL the bridge printed
//   EA_HOME       the private home (HOME; the state dir is EA_HOME/.clawdbot)
//   EA_NODE_HOST  the node-host binary
//   EA_UI_BRIDGE  the ui-bridge binary
//   EA_OUT        where screenshots go
//   EA_ARGV       (terminal only) the command to ask about, as a JSON array
// Usage: node drive.mjs SCENARIO
//   (answers | elsewhere | terminal | policy | lists | a11y | caching | bench)
// Prints one JSON line of results (the last line); exits non-zero with a
// message on failure. `terminal` also prints a `{"waiting": ID}` line when
// the card is on the page, for the test to answer in the terminal.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const LOGIN_URL = env('EA_WEB_URL');
const BASE = new URL(LOGIN_URL).origin;
const HOME = env('EA_HOME');
const STATE = join(HOME, '.clawdbot');
const NODE_HOST = env('EA_NODE_HOST');
const UI_BRIDGE = env('EA_UI_BRIDGE');
const OUT = env('EA_OUT');
const STEP_TIMEOUT = 20000;

function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** Runs a workspace binary in the private home; resolves with its outcome. */
function run(bin, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: HOME,
      env: { PATH: process.env.PATH, HOME, CLAWDBOT_STATE_DIR: STATE },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `node-host run --exec-host bridge -- ARGV`, waiting for a person. */
const nodeRun = (argv) => run(NODE_HOST, ['run', '--exec-host', 'bridge', '--', ...argv]);

function approvalsFile() {
  return JSON.parse(readFileSync(join(STATE, 'exec-approvals.json'), 'utf8'));
}

async function launch() {
  const profile = mkdtempSync(join(tmpdir(), 'ea-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    viewport: { width: 1100, height: 900 },
  });
  context.setDefaultTimeout(STEP_TIMEOUT);
  const close = async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); };
  return { context, close };
}

/** A logged-in page: the login URL sets the cookie and lands on `/`. */
async function open(context) {
  const page = context.pages()[0] || await context.newPage();
  const response = await page.goto(LOGIN_URL);
  check(response.ok(), `login answered ${response.status()}`);
  check(new URL(page.url()).search === '', `the secret stayed in the address bar: ${page.url()}`);
  await page.waitForSelector('#connection:text("live")');
  // The inline stylesheet applied: the CSP's hash matched it.
  const margin = await page.evaluate(() => getComputedStyle(document.body).margin);
  check(margin === '0px', `the page's stylesheet did not apply (body margin ${margin}): its CSP hash?`);
  return page;
}

/** The card of the pending approval whose command text contains `text`. */
function card(page, text) {
  return page.locator('.approval', { has: page.locator('.command', { hasText: text }) });
}

async function shot(page, name) {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
}

// ---------------------------------------------------------------- scenarios

/** Each button and each key answers; the waiting run gets the outcome. */
async function answers(page) {
  const cases = [
    { how: 'button', decision: 'allow-once', argv: ['id', '-u'], expect: 0 },
    { how: 'button', decision: 'allow-always', argv: ['whoami'], expect: 0 },
    { how: 'button', decision: 'deny', argv: ['uname', '-s'], expect: 126 },
    { how: 'key', key: 'o', argv: ['date', '+%Y'], expect: 0 },
    { how: 'key', key: 'a', argv: ['echo', 'always-by-key'], expect: 0 },
    { how: 'key', key: 'd', argv: ['true'], expect: 126 },
  ];
  const results = [];
  for (const c of cases) {
    const running = nodeRun(c.argv);
    const target = card(page, c.argv.join(' '));
    await target.waitFor();
    // Everything the terminal shows is on the card.
    for (const field of ['cwd', 'agent', 'session', 'policy', 'id']) {
      check(await target.locator('dt', { hasText: field }).count() === 1, `card lacks ${field}`);
    }
    check(/Risk: (low|medium|high|critical)/.test(await target.locator('.risk').innerText()), 'risk label missing');
    check((await target.locator('.segments').innerText()).includes('real:'), 'segment real path missing');
    check(/Expires in \d+:\d\d/.test(await target.locator('.countdown').innerText()), 'countdown missing');
    const label = c.how === 'button' ? c.decision : `key-${c.key}`;
    await shot(page, `answers-${label}-pending`);
    if (c.how === 'button') {
      await target.locator(`button[data-decision="${c.decision}"]`).click();
    } else {
      await target.focus();
      await page.waitForSelector(`.approval[data-id="${await target.getAttribute('data-id')}"][data-keys-armed="true"]`);
      await page.keyboard.press(c.key);
    }
    const outcome = await running;
    check(outcome.code === c.expect, `${label} on ${c.argv.join(' ')}: exit ${outcome.code}, expected ${c.expect}: ${outcome.stderr}`);
    await target.waitFor({ state: 'detached' });
    results.push({ case: label, exit: outcome.code });
  }
  const file = approvalsFile();
  const patterns = (file.agents?.main?.allowlist || []).map((e) => e.pattern);
  check(patterns.some((p) => p.endsWith('/whoami')), `allow-always by button did not persist whoami: ${patterns}`);
  check(patterns.some((p) => p.endsWith('/echo')), `allow-always by key did not persist echo: ${patterns}`);
  await shot(page, 'answers-done');
  // The audit view shows these decisions, and the chain verifies.
  await page.click('#tab-audit');
  await page.waitForSelector('#audit-chain:text("Chain verified")');
  const byPage = await page.locator('#audit-table tbody tr', { hasText: 'human:web' }).count();
  check(byPage >= 6, `the audit view shows ${byPage} answers by the page, expected 6 or more`);
  await page.selectOption('#audit-decision', 'deny');
  await page.click('#audit-filter button[type="submit"]');
  await page.waitForFunction(() => [...document.querySelectorAll('#audit-table tbody tr')].every((r) => r.children[3]?.textContent === 'deny'));
  const denied = await page.locator('#audit-table tbody tr').count();
  check(denied >= 2, `the deny filter shows ${denied} rows, expected 2 or more`);
  await shot(page, 'answers-audit');
  return { cases: results, auditRowsByPage: byPage, auditDenied: denied };
}

/** An answer from `ui-bridge approvals resolve` removes the card at once;
 * a request arriving while the tab is hidden raises a desktop notification. */
async function elsewhere(page, context) {
  await context.grantPermissions(['notifications'], { origin: BASE });
  // The tab goes to the background; notifications the page raises are
  // recorded on their way to the browser's own Notification API.
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    const Real = window.Notification;
    window.__notified = [];
    window.Notification = class extends Real {
      static get permission() { return Real.permission; }
      constructor(title, options) { super(title, options); window.__notified.push({ title, body: options.body }); }
    };
  });
  const running = nodeRun(['id', '-g']);
  const target = card(page, 'id -g');
  await target.waitFor();
  await shot(page, 'elsewhere-pending');
  const id = await target.getAttribute('data-id');
  const notified = await page.evaluate(() => window.__notified);
  check(notified.length === 1 && notified[0].body.includes('id -g'), `no desktop notification for the hidden tab: ${JSON.stringify(notified)}`);
  const resolved = await run(UI_BRIDGE, ['approvals', 'resolve', id, 'deny', '--approver', 'cli-test']);
  check(resolved.code === 0, `approvals resolve failed: ${resolved.stderr}`);
  await target.waitFor({ state: 'detached' });
  const outcome = await running;
  check(outcome.code === 126, `the run was not denied: exit ${outcome.code}`);
  // A late answer from the page is refused: the first answer won.
  const late = await page.evaluate(async (approval) => {
    const r = await fetch(`/api/approvals/${approval}/answer`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ decision: 'allow-once' }),
    });
    return r.status;
  }, id);
  check(late === 404, `a late answer got ${late}, expected 404`);
  await shot(page, 'elsewhere-done');
  return { resolvedBy: 'approvals resolve', lateAnswer: late, notified: notified[0].body };
}

/** An answer in the terminal prompt (the bridge runs in tmux; the test
 * presses the key once this prints `waiting`) removes the card at once, and
 * the waiting run gets the outcome. */
async function terminal(page) {
  const argv = JSON.parse(env('EA_ARGV'));
  const running = nodeRun(argv);
  const target = card(page, argv.join(' '));
  await target.waitFor();
  const id = await target.getAttribute('data-id');
  await shot(page, 'terminal-pending');
  console.log(JSON.stringify({ waiting: id }));
  // Nothing on the page answers: the test presses the key in the terminal.
  await target.waitFor({ state: 'detached' });
  const outcome = await running;
  check(await page.locator('.approval').count() === 0, 'a card is still on the page');
  check(await page.locator('#empty').isVisible(), 'the page does not say that nothing is waiting');
  await shot(page, 'terminal-done');
  return { id, exit: outcome.code, stdout: outcome.stdout, stderr: outcome.stderr };
}

/** The allowlist editor writes the file; a concurrent edit is reported. */
async function policy(page) {
  const uname = (await run('/bin/sh', ['-c', 'readlink -f "$(command -v uname)"'])).stdout.trim();
  const token = approvalsFile().socket.token;
  const policyBody = await page.evaluate(async () => (await fetch('/api/policy')).text());
  check(!policyBody.includes(token), 'the socket token was sent to the page');

  await page.click('#tab-policy');
  const main = page.locator('fieldset.agent[data-agent="main"]');
  await main.waitFor();
  // Live explain before the edit: uname asks.
  await page.fill('#explain-command', 'uname -a');
  await page.waitForSelector('#explain-result .verdict-ask');
  await main.getByLabel('Executable path or glob').fill(uname);
  await main.getByRole('button', { name: 'Add entry to main' }).click();
  await page.click('#policy-save');
  await page.waitForSelector('#policy-status:text("Saved.")');
  const saved = (approvalsFile().agents.main.allowlist || []).map((e) => e.pattern);
  check(saved.includes(uname), `the page's entry is not in the file: ${saved}`);
  check(approvalsFile().socket.token === token, 'the token changed on save');
  // Live explain after the edit: allowed.
  await page.fill('#explain-command', 'uname -r');
  await page.waitForSelector('#explain-result .verdict-allow');
  await shot(page, 'policy-saved');
  const auto = await nodeRun(['uname', '-s']);
  check(auto.code === 0, `the next run was not auto-allowed: exit ${auto.code}: ${auto.stderr}`);
  check(await page.locator('.approval').count() === 0, 'an approval was asked for an allowlisted run');

  // A concurrent edit elsewhere, through the CLI's own locked write.
  const external = await run(NODE_HOST, ['approvals', 'allow', '/usr/bin/external-edit', '--agent', 'main']);
  check(external.code === 0, `node-host approvals allow failed: ${external.stderr}`);
  await main.getByLabel('Executable path or glob').fill('/usr/bin/page-edit');
  await main.getByRole('button', { name: 'Add entry to main' }).click();
  await page.click('#policy-save');
  await page.waitForSelector('#conflict:not([hidden])');
  const yours = await page.locator('#conflict-yours').innerText();
  const theirs = await page.locator('#conflict-theirs').innerText();
  check(yours.includes('/usr/bin/page-edit'), 'the conflict does not show the page version');
  check(theirs.includes('/usr/bin/external-edit'), 'the conflict does not show the file version');
  const onDisk = approvalsFile().agents.main.allowlist.map((e) => e.pattern);
  check(onDisk.includes('/usr/bin/external-edit') && !onDisk.includes('/usr/bin/page-edit'), `the conflicting save wrote: ${onDisk}`);
  await shot(page, 'policy-conflict');
  // Keep both edits: the page's addition on top of the file's version.
  await page.click('#conflict-merge-btn');
  await page.click('#policy-save');
  await page.waitForSelector('#policy-status:text("Saved.")');
  const merged = approvalsFile().agents.main.allowlist.map((e) => e.pattern);
  check(merged.includes('/usr/bin/page-edit') && merged.includes('/usr/bin/external-edit') && merged.includes(uname),
    `merging lost an entry: ${merged}`);
  await shot(page, 'policy-merged');
  return { added: uname, conflict: 'reported', external: '/usr/bin/external-edit' };
}

/** `node-host explain --json -- ARGV` in the private home: its decision. */
async function explainDecision(argv) {
  const r = await run(NODE_HOST, ['explain', '--json', '--', ...argv]);
  check(r.code === 0, `explain ${argv.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout).decision;
}

/** An agent's safe bins and denylist, edited in the page: each save lands in
 * the file through the locked write, and the next decision follows it. */
async function lists(page) {
  const uname = (await run('/bin/sh', ['-c', 'readlink -f "$(command -v uname)"'])).stdout.trim();
  const decisions = async () => ({ wc: await explainDecision(['wc', '-l']), uname: await explainDecision(['uname', '-s']) });
  const before = await decisions();
  check(before.wc === 'allow' && before.uname === 'ask', `before the edit: ${JSON.stringify(before)}`);
  const defaultsBefore = approvalsFile().defaults;

  await page.click('#tab-policy');
  const main = page.locator('fieldset.agent[data-agent="main"]');
  await main.waitFor();
  // main's own safe bins: the built-in list without wc.
  await main.getByLabel('Own safe bins for main').check();
  await main.getByLabel('Safe bins of main').fill('cut head tail tr uniq');
  // main's denylist: uname, by its real path.
  await main.getByLabel('Denied path pattern').fill(uname);
  await main.getByLabel('Reason').fill('main never needs uname');
  await main.getByRole('button', { name: 'Add to denylist of main' }).click();
  await main.locator(`tr[data-deny="${uname}"]`).waitFor();
  await page.click('#policy-save');
  await page.waitForSelector('#policy-status:text("Saved.")');
  const added = approvalsFile();
  check(JSON.stringify(added.agents.main.safeBins) === JSON.stringify(['cut', 'head', 'tail', 'tr', 'uniq']),
    `main's safe bins in the file: ${JSON.stringify(added.agents.main.safeBins)}`);
  const denied = added.agents.main.denylist || [];
  check(denied.length === 1 && denied[0].pattern === uname && denied[0].reason === 'main never needs uname',
    `main's denylist in the file: ${JSON.stringify(denied)}`);
  check(JSON.stringify(added.defaults) === JSON.stringify(defaultsBefore), `the defaults changed: ${JSON.stringify(added.defaults)}`);
  const edited = await decisions();
  check(edited.wc === 'ask' && edited.uname === 'deny', `after adding: ${JSON.stringify(edited)}`);
  // The next run of uname is refused at once: no person is asked.
  const refused = await nodeRun(['uname', '-s']);
  check(refused.code === 126, `uname ran or waited after the denylist edit: exit ${refused.code}: ${refused.stderr}`);
  check(await page.locator('.approval').count() === 0, 'a denylisted run was asked about');
  await shot(page, 'lists-added');

  // Remove both again: the entry's button, and main inherits safe bins.
  await main.getByRole('button', { name: `Remove denylist entry ${uname} from main` }).click();
  await main.getByLabel('Own safe bins for main').uncheck();
  await page.click('#policy-save');
  await page.waitForSelector('#policy-status:text("Saved.")');
  const removed = approvalsFile().agents.main;
  check(removed.safeBins === undefined && removed.denylist === undefined, `main still has: ${JSON.stringify(removed)}`);
  const after = await decisions();
  check(after.wc === 'allow' && after.uname === 'ask', `after removing: ${JSON.stringify(after)}`);
  // wc is a safe bin of main again: the next run is allowed unasked.
  const counted = await nodeRun(['wc', '-c']);
  check(counted.code === 0 && counted.stdout.trim() === '0', `wc was not auto-allowed: exit ${counted.code}: ${counted.stderr}`);
  await shot(page, 'lists-removed');
  return { before, edited, after, deniedExit: refused.code };
}

/** axe-core finds no serious or critical violation in any view. */
async function a11y(page) {
  const running = nodeRun(['id', '-n', '-u']);
  const target = card(page, 'id -n -u');
  await target.waitFor();
  await page.waitForSelector('.approval[data-buttons-armed="true"]');
  const axeSource = readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
  const report = {};
  const views = [['approvals', null], ['policy', '#tab-policy'], ['audit', '#tab-audit']];
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [name, tab] of views) {
      await page.click(tab || '#tab-approvals');
      if (name === 'policy') await page.waitForSelector('fieldset.agent');
      if (name === 'audit') await page.waitForSelector('#audit-chain:not(:empty)');
      await page.evaluate(axeSource);
      const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
      const serious = result.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
      report[`${name}-${scheme}`] = result.violations.map((v) => `${v.impact}:${v.id}`);
      check(!serious.length, `${name} (${scheme}): ${JSON.stringify(serious.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target) })))}`);
      await shot(page, `a11y-${name}-${scheme}`);
    }
  }
  // Narrow: a phone through an SSH tunnel.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.click('#tab-approvals');
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `the page scrolls sideways at 390 px (${overflow} px too wide)`);
  await shot(page, 'a11y-narrow');
  await page.setViewportSize({ width: 1100, height: 900 });
  // Keyboard only: Tab reaches the request and its buttons.
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.tagName);
  check(focused, 'nothing takes focus from the keyboard');
  await target.locator('button[data-decision="deny"]').click();
  const outcome = await running;
  check(outcome.code === 126, `deny did not reach the run: ${outcome.code}`);
  return { violations: report };
}

/** The caching contract, as chromium sees it: the script is at a
 * content-hashed URL, cacheable for good and immutable, and a later tab runs
 * it from the cache; the HTML and every API answer (the event stream
 * included) are `no-store`; the unhashed URL and a wrong
 * hash are 404s. */
async function caching(page, context) {
  const script = await page.evaluate(() => {
    const element = document.querySelector('script[src]');
    return { count: document.scripts.length, src: element?.getAttribute('src'), integrity: element?.integrity };
  });
  check(script.count === 1, `the page has ${script.count} script elements`);
  const hashed = /^\/app\.([0-9a-f]{16})\.js$/.exec(script.src || '');
  check(hashed, `the script is not at a content-hashed URL: ${script.src}`);
  check(/^sha256-[A-Za-z0-9+/]{43}=$/.test(script.integrity), `the script has no SHA-256 integrity: ${script.integrity}`);
  // The same hash with one digit changed: what an older binary's page asked for.
  const digit = hashed[1][0] === '0' ? '1' : '0';
  const wrong = `/app.${digit}${hashed[1].slice(1)}.js`;
  const paths = [script.src, '/', '/api/session', '/api/pending', '/api/policy', '/api/audit', '/api/events', '/app.js', wrong];
  const headers = await page.evaluate(async (list) => {
    const out = {};
    for (const path of list) {
      const abort = new AbortController();
      // Straight from the server, never from the cache; the event stream
      // answers its headers and is then dropped.
      const response = await fetch(path, { cache: 'no-store', signal: abort.signal });
      out[path] = { status: response.status, cacheControl: response.headers.get('cache-control'), csp: response.headers.get('content-security-policy') };
      abort.abort();
    }
    return out;
  }, paths);
  const immutable = headers[script.src];
  check(immutable.status === 200, `${script.src} answered ${immutable.status}`);
  const directives = (immutable.cacheControl || '').split(',').map((d) => d.trim());
  check(directives.includes('immutable') && directives.includes('max-age=31536000') && !directives.includes('no-store') && !directives.includes('no-cache'),
    `the hashed script is not cacheable and immutable: ${immutable.cacheControl}`);
  for (const path of paths.slice(1)) {
    const { status, cacheControl, csp } = headers[path];
    check(cacheControl === 'no-store', `${path} (${status}) may be cached: Cache-Control ${cacheControl}`);
    check(csp && csp.includes("script-src 'self'") && !csp.includes('unsafe-inline'), `${path} lost its CSP: ${csp}`);
  }
  for (const path of ['/app.js', wrong]) check(headers[path].status === 404, `${path} answered ${headers[path].status}, not 404`);
  for (const path of paths.slice(1, 7)) check(headers[path].status === 200, `${path} answered ${headers[path].status}`);

  // A second tab: the HTML again from the server, the script from the cache,
  // and the page works (the cached bytes passed the integrity check).
  const fresh = await context.newPage();
  await fresh.goto(BASE + '/');
  await fresh.waitForSelector('#connection:text("live")');
  const second = await fresh.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    const s = performance.getEntriesByType('resource').find((r) => /\/app\.[0-9a-f]{16}\.js$/.test(new URL(r.name).pathname));
    return { htmlTransfer: n.transferSize, scriptTransfer: s?.transferSize ?? null, scriptBody: s?.decodedBodySize ?? null };
  });
  await shot(fresh, 'caching-second-tab');
  await fresh.close();
  check(second.htmlTransfer > 0, `the second tab took the HTML from the cache (transferSize ${second.htmlTransfer})`);
  check(second.scriptTransfer === 0 && second.scriptBody > 0,
    `the second tab fetched the script again (transferSize ${second.scriptTransfer}, body ${second.scriptBody})`);
  return { script: script.src, headers, secondTab: second };
}

/** One fresh tab's first paint and what led to it, in ms from navigation
 * start: the page's response, its script (and whether it came from the
 * cache), DOMContentLoaded. */
async function paintOnce(context) {
  const fresh = await context.newPage();
  await fresh.goto(BASE + '/');
  await fresh.waitForSelector('#connection:text("live")');
  const sample = await fresh.evaluate(() => {
    const paint = Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
    const n = performance.getEntriesByType('navigation')[0];
    const script = performance.getEntriesByType('resource').find((r) => /\/app(\.[0-9a-f]+)?\.js$/.test(new URL(r.name).pathname));
    return {
      firstPaint: paint['first-paint'], firstContentfulPaint: paint['first-contentful-paint'],
      responseStart: n.responseStart, responseEnd: n.responseEnd, domInteractive: n.domInteractive,
      js: script?.responseEnd ?? null, jsFromCache: script ? script.transferSize === 0 : null,
      domContentLoaded: n.domContentLoadedEventEnd,
    };
  });
  await fresh.close();
  return sample;
}

/** Median, min and max of one field over the samples. */
function spread(samples, field) {
  const values = samples.map((s) => s[field]).filter((v) => v != null).sort((a, b) => a - b);
  const round = (v) => Math.round(v * 10) / 10;
  return { median: round(values[Math.floor(values.length / 2)]), min: round(values[0]), max: round(values[values.length - 1]) };
}

/** First paint (EA_PAINTS fresh tabs, 5 unless set), and 50 pending
 * approvals arriving, reloaded and answered. */
async function bench(page, context) {
  // The login tab: /login?secret=… answered 303, then / with nothing cached.
  const login = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime])));
  const paints = [];
  for (let i = 0; i < Number(process.env.EA_PAINTS || 5); i += 1) paints.push(await paintOnce(context));
  const firstPaint = Object.fromEntries(['firstPaint', 'firstContentfulPaint', 'responseEnd', 'domInteractive', 'js', 'domContentLoaded']
    .map((field) => [field, spread(paints, field)]));
  firstPaint.jsFromCache = paints.filter((p) => p.jsFromCache).length;

  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: false });
    Object.assign(window.__approvalsStats, { renders: 0, maxRenderMs: 0, totalRenderMs: 0 });
  });
  const runs = [];
  const t0 = Date.now();
  for (let i = 0; i < 50; i += 1) runs.push(nodeRun(['seq', String(i + 1)]));
  await page.waitForFunction(() => document.querySelectorAll('.approval').length === 50, null, { timeout: 60000 });
  const arrivedMs = Date.now() - t0;
  const arriving = await page.evaluate(() => ({ ...window.__approvalsStats, longTasks: window.__longTasks.slice() }));
  await shot(page, 'bench-50');

  const r0 = Date.now();
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('.approval').length === 50);
  const reloadMs = Date.now() - r0;
  const reloaded = await page.evaluate(() => ({ ...window.__approvalsStats }));
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: false });
    Object.assign(window.__approvalsStats, { renders: 0, maxRenderMs: 0, totalRenderMs: 0 });
  });
  // Five countdown ticks with 50 cards on screen.
  await page.waitForTimeout(5000);
  const ticking = await page.evaluate(() => ({ longTasks: window.__longTasks.slice() }));
  const ids = await page.locator('.approval').evaluateAll((cards) => cards.map((c) => c.dataset.id));
  const d0 = Date.now();
  await Promise.all(ids.map((id) => page.evaluate(async (approval) => (await fetch(`/api/approvals/${approval}/answer`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ decision: 'deny' }),
  })).status, id)));
  await page.waitForFunction(() => document.querySelectorAll('.approval').length === 0);
  const answerAllMs = Date.now() - d0;
  const answering = await page.evaluate(() => ({ ...window.__approvalsStats, longTasks: window.__longTasks.slice() }));
  const outcomes = await Promise.all(runs);
  check(outcomes.every((o) => o.code === 126), 'not every bench run was denied');
  return {
    loginFirstPaintMs: login['first-paint'], firstPaint, paintSamples: paints.length,
    fiftyArrive: { wallMs: arrivedMs, renders: arriving.renders, maxRenderMs: arriving.maxRenderMs, totalRenderMs: arriving.totalRenderMs, longTasks: arriving.longTasks },
    fiftyReload: { wallMs: reloadMs, snapshotRenderMs: reloaded.maxRenderMs },
    countdownTicks: { longTasks: ticking.longTasks },
    fiftyAnswered: { wallMs: answerAllMs, renders: answering.renders, maxRenderMs: answering.maxRenderMs, longTasks: answering.longTasks },
  };
}

const SCENARIOS = { answers, elsewhere, terminal, policy, lists, a11y, caching, bench };

async function main() {
  const name = process.argv[2];
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario ${name}; one of ${Object.keys(SCENARIOS).join(', ')}`);
  const { context, close } = await launch();
  let page;
  try {
    page = await open(context);
    const result = await scenario(page, context);
    console.log(JSON.stringify({ scenario: name, ok: true, ...result }));
  } catch (error) {
    if (page) await shot(page, `${name}-FAILED`).catch(() => {});
    throw error;
  } finally {
    await close();
  }
}

main().catch((error) => {
  console.error(`FAIL: ${error.stack || error}`);
  process.exit(1);
});
