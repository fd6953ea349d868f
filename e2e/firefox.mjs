// Firefox ESR for the page tests: puppeteer-core drives a stock Firefox over
// WebDriver BiDi (playwright-core can only drive its own patched Firefox
// build, which cannot be downloaded here), and this module dresses
// puppeteer's objects in the part of playwright-core's API the page tests
// use, so a test written for Chromium (e2e/helpers.mjs setup()) runs in
// Firefox unchanged when $SESSIONTREE_BROWSER is "firefox" (see
// e2e/firefox.test.mjs, which runs the shim, durability and panel tests so).
//
// What is covered: Browser.newContext/close/version, BrowserContext
// newPage/pages/close/setOffline, Page goto/reload/evaluate/
// waitForFunction/waitForSelector/waitForTimeout/addInitScript/on/workers/
// locator/keyboard/screenshot/close/isClosed, Worker url/evaluate,
// ConsoleMessage type/text/location and Locator (below). Anything else is
// missing on purpose: a test that needs it fails with "is not a function",
// never silently.
//
// Firefox ESR is Debian's /usr/bin/firefox-esr (scripts/ensure-firefox.sh
// installs it); $FIREFOX_PATH overrides it.

import { after } from 'node:test';

export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

/**
 * Firefox preferences of every test browser. navigator.storage.persist()
 * opens a permission prompt in Firefox that a headless browser never
 * answers (the promise stays pending); dom.storageManager.prompt.testing
 * (with .allow) answers it "granted" at once, as Firefox's own tests do,
 * unless the test passes prefs that say otherwise.
 */
export const FIREFOX_PREFS = {
  'dom.storageManager.prompt.testing': true,
  'dom.storageManager.prompt.testing.allow': true,
};

/** Default wait of the locators and waitForFunction, ms (Playwright's default action timeout). */
const TIMEOUT = 30_000;

/**
 * Launch headless Firefox ESR.
 * @param {{userDataDir?: string, prefs?: object}} [options] userDataDir: a
 *   profile directory kept across launches (IndexedDB survives a restart);
 *   prefs: Firefox preferences added to FIREFOX_PREFS.
 * @returns {Promise<FirefoxBrowser>}
 */
export async function launchFirefox({ userDataDir, prefs = {} } = {}) {
  // Loaded here, so a Chromium run never loads puppeteer-core.
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    userDataDir,
    extraPrefsFirefox: { ...FIREFOX_PREFS, ...prefs },
  });
  return new FirefoxBrowser(browser);
}

/** The browser sharedFirefox() hands out, started on first use. */
let shared = null;

// Close it after the last test of the process: a root after() hook,
// registered when this module is loaded by a test file (a hook added from
// inside a test or hook would belong to that one and run at its end).
if (process.env.SESSIONTREE_BROWSER === 'firefox') {
  after(async () => {
    const browser = await shared?.catch(() => null);
    shared = null;
    await browser?.close();
  });
}

/**
 * A handle on one Firefox of this test process (SESSIONTREE_BROWSER=firefox),
 * launched on first use and closed after the last test: each setup() of a
 * test file gets its own context (a BiDi user context: its own storage, as
 * a new Chromium would have) without paying a browser start, which takes
 * 2–7 s here. close() on the handle closes only the contexts it made.
 * @returns {Promise<FirefoxBrowser>}
 */
export async function sharedFirefox() {
  if (!shared) {
    shared = launchFirefox();
    shared.catch(() => (shared = null));
  }
  return new SharedFirefox(await shared);
}

/**
 * launchPersistentContext for Firefox: a browser on the profile in
 * userDataDir, answered as its default context (close() closes the browser).
 * @param {string} userDataDir
 * @param {{viewport?: {width: number, height: number}}} [contextOptions]
 * @param {{prefs?: object}} [options] as launchFirefox takes them
 * @returns {Promise<FirefoxContext>}
 */
export async function launchFirefoxPersistent(userDataDir, contextOptions = {}, options = {}) {
  const browser = await launchFirefox({ ...options, userDataDir });
  const context = new FirefoxContext(browser.raw.defaultBrowserContext(), contextOptions, browser);
  for (const page of await browser.raw.pages()) context._pages.push(new FirefoxPage(page, context));
  return context;
}

/** playwright-core's Browser, over a puppeteer Browser. */
export class FirefoxBrowser {
  constructor(raw) {
    /** The puppeteer Browser. */
    this.raw = raw;
  }

  /** A new context (its own cookies and storage: a BiDi user context). options: {viewport: {width, height}}. */
  async newContext(options = {}) {
    return new FirefoxContext(await this.raw.createBrowserContext(), options, null);
  }

  /** "firefox/153.8.0". */
  version() {
    return this.raw.version();
  }

  /** The browser's child process (to kill it with SIGKILL). */
  process() {
    return this.raw.process();
  }

  /** Close the browser. */
  close() {
    return this.raw.close();
  }
}

/** A FirefoxBrowser's stand-in for one user of the shared browser (sharedFirefox). */
class SharedFirefox {
  constructor(browser) {
    this.browser = browser;
    this.raw = browser.raw;
    this.contexts = [];
  }

  /** A new context of the shared browser, closed with this handle. */
  async newContext(options = {}) {
    const context = await this.browser.newContext(options);
    this.contexts.push(context);
    return context;
  }

  /** The browser's name and version, e.g. "firefox/153.8.0". */
  version() {
    return this.browser.version();
  }

  /** Closes the contexts made through this handle; the browser stays for the next test. */
  async close() {
    for (const c of this.contexts.splice(0)) await c.close().catch(() => {});
  }
}

/** playwright-core's BrowserContext, over a puppeteer BrowserContext. */
export class FirefoxContext {
  constructor(raw, options, ownBrowser) {
    this.raw = raw;
    this.options = options;
    this._ownBrowser = ownBrowser;
    this._pages = [];
  }

  /** A new page in a window of its own (a tab of a window behind would be hidden: Firefox then clamps its timers to 1 s and stops its animation frames). */
  async newPage() {
    const page = new FirefoxPage(await this.raw.newPage({ type: 'window' }), this);
    if (this.options.viewport) await page.raw.setViewport(this.options.viewport);
    if (this._offline) await page.raw.setOfflineMode(true);
    this._pages.push(page);
    return page;
  }

  /** The open pages made through this context (and the first page of a persistent one). */
  pages() {
    return this._pages.filter((p) => !p.isClosed());
  }

  /** Offline (or back online) for every page of the context. */
  async setOffline(offline) {
    this._offline = offline;
    for (const page of this.pages()) await page.raw.setOfflineMode(offline);
  }

  /** Close the context (the browser too for a persistent one). */
  async close() {
    if (this._ownBrowser) return this._ownBrowser.close();
    return this.raw.close();
  }
}

/** Console message types as playwright-core names them ("warning", not "warn"). */
const CONSOLE_TYPES = { warn: 'warning' };

/** playwright-core's ConsoleMessage, over puppeteer's. */
function consoleMessage(m) {
  return {
    type: () => CONSOLE_TYPES[m.type()] ?? m.type(),
    text: () => m.text(),
    location: () => m.location(),
  };
}

/** playwright-core's Worker, over a puppeteer WebWorker. */
function worker(w) {
  return {
    url: () => w.url(),
    evaluate: (fn, arg) => w.evaluate(fn, arg),
  };
}

/** Playwright key names to puppeteer's: "Shift+Enter" is a chord of modifiers and a key. */
async function pressKey(keyboard, combo) {
  const keys = combo === '+' ? ['+'] : combo.split('+');
  const key = keys.pop();
  for (const m of keys) await keyboard.down(m);
  await keyboard.press(key);
  for (const m of keys.reverse()) await keyboard.up(m);
}

/** playwright-core's Page, over a puppeteer Page. */
export class FirefoxPage {
  /** @param {import('puppeteer-core').Page} raw @param {FirefoxContext} context */
  constructor(raw, context) {
    this.raw = raw;
    this._context = context;
    /** URLs this page loaded that answered an HTTP error (see on('pageerror')). */
    this._failed = new Set();
    raw.on('response', (r) => r.status() >= 400 && this._failed.add(r.url()));
    this.keyboard = {
      press: (key) => pressKey(raw.keyboard, key),
      type: (text) => raw.keyboard.type(text),
    };
  }

  /** The FirefoxContext the page belongs to. */
  context() {
    return this._context;
  }

  /** The page's URL. */
  url() {
    return this.raw.url();
  }

  /** Load url; resolves once its load event has fired. */
  async goto(url) {
    return this.raw.goto(url, { waitUntil: 'load' });
  }

  /** Reload; resolves once the load event has fired. */
  async reload() {
    return this.raw.reload({ waitUntil: 'load' });
  }

  /** fn(arg) in the page; resolves to its (awaited) result, serialised over WebDriver BiDi. */
  evaluate(fn, arg) {
    return this.raw.evaluate(fn, arg);
  }

  /** waitForFunction(fn, arg, {timeout}) as playwright-core takes it; polls every animation frame. */
  async waitForFunction(fn, arg, options = {}) {
    const handle = await this.raw.waitForFunction(fn, { timeout: options.timeout ?? TIMEOUT, polling: 'raf' }, arg);
    return handle;
  }

  /** Wait until selector (in open shadow roots too) matches an element in options.state (default visible). */
  waitForSelector(selector, options = {}) {
    const state = options.state ?? 'visible';
    return this.locator(selector).waitFor({ state, timeout: options.timeout });
  }

  /** Resolves after ms (a wait the Chromium tests also make; never a substitute for waiting for what is drawn). */
  waitForTimeout(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** fn(arg) before the page's own scripts, in every document the page loads. */
  addInitScript(fn, arg) {
    return this.raw.evaluateOnNewDocument(fn, arg);
  }

  /**
   * Events: console, pageerror, dialog, worker (playwright-core's names and
   * shapes). Firefox reports a worker script that failed to load (a 404,
   * served as text/plain) as an uncaught error ("Loading Worker from “…”
   * was blocked because of a disallowed MIME type") besides firing the
   * Worker's error event, which the page handles; Chromium fires only the
   * event. That report is left out of pageerror when the script's response
   * was an HTTP error, so a test sees the same errors in both engines.
   */
  on(event, handler) {
    if (event === 'console') this.raw.on('console', (m) => handler(consoleMessage(m)));
    else if (event === 'worker') this.raw.on('workercreated', (w) => handler(worker(w)));
    else if (event === 'pageerror') {
      this.raw.on('pageerror', (err) => {
        const blocked = /^Loading (?:Worker|module) from “([^”]+)” was blocked because of a disallowed MIME type/.exec(err?.message ?? '');
        if (blocked && this._failed.has(blocked[1])) return;
        handler(err);
      });
    } else if (event === 'dialog') this.raw.on(event, handler);
    else throw new Error(`FirefoxPage.on: no event "${event}" in this adapter`);
    return this;
  }

  /** The page's dedicated workers (url only: WebDriver BiDi in Firefox 153 cannot evaluate in them). */
  workers() {
    return this.raw.workers().map(worker);
  }

  /** Elements matching selector anywhere in the page, open shadow roots included (see Locator). */
  locator(selector, options) {
    return new Locator(this, []).locator(selector, options);
  }

  /** A PNG of the viewport, at options.path. */
  screenshot(options) {
    return this.raw.screenshot(options);
  }

  /** Whether close() was called or the page went away. */
  isClosed() {
    return this.raw.isClosed();
  }

  /** Close the page. */
  close() {
    return this.raw.close();
  }
}

/**
 * In the page: the elements a locator's steps select, or a fact about them.
 * Self-contained (it is sent to the page as source). Each step is
 * {selector, hasText?, nth?}: CSS matched in the subtree of each element the
 * previous step selected, open shadow roots included (as playwright-core's
 * CSS engine pierces them); hasText keeps the elements whose text
 * (whitespace collapsed) contains the string, case-insensitively, or
 * matches the pattern {source, flags}; nth keeps one (-1 the last).
 * op: "all" (the elements), "count", "state" (is the first in state arg:
 * attached, detached, visible or hidden), "visible", "attr" (arg: name),
 * "text" (textContent of the first), "texts" (of each).
 */
function probe(steps, op, arg) {
  const under = (root, selector) => {
    const out = [];
    const walk = (r) => {
      for (const el of r.querySelectorAll(selector)) out.push(el);
      for (const el of r.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
    };
    if (root.shadowRoot) walk(root.shadowRoot);
    walk(root);
    return out;
  };
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  let els = [document];
  for (const step of steps) {
    let next = [...new Set(els.flatMap((el) => under(el, step.selector)))];
    if (step.hasText != null) {
      const t = step.hasText;
      next = next.filter((el) => {
        const text = norm(el.textContent ?? '');
        return typeof t === 'string' ? text.toLowerCase().includes(norm(t).toLowerCase()) : new RegExp(t.source, t.flags).test(text);
      });
    }
    if (step.nth != null) {
      const one = step.nth < 0 ? next.at(step.nth) : next[step.nth];
      next = one ? [one] : [];
    }
    els = next;
  }
  const visible = (el) => {
    if (!el || !el.isConnected) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const first = els[0];
  switch (op) {
    case 'all':
      return els;
    case 'count':
      return els.length;
    case 'visible':
      return visible(first);
    case 'state':
      if (arg === 'attached') return !!first;
      if (arg === 'detached') return !first;
      if (arg === 'visible') return visible(first);
      return !visible(first);
    case 'attr':
      return first ? first.getAttribute(arg) : undefined;
    case 'text':
      return first ? first.textContent : undefined;
    case 'texts':
      return els.map((el) => el.textContent ?? '');
    default:
      throw new Error('probe: unknown op ' + op);
  }
}

/** A hasText option as probe takes it (a RegExp as its source and flags). */
function textFilter(hasText) {
  if (hasText == null) return null;
  return hasText instanceof RegExp ? { source: hasText.source, flags: hasText.flags } : String(hasText);
}

/**
 * playwright-core's Locator, the part the tests use: a chain of steps found
 * anew at each use (in open shadow roots too), with the actions waiting up
 * to 30 s for their element (attached; visible for click and fill).
 * first/nth/locator narrow it; count, isVisible, isHidden and
 * allTextContents answer at once, as playwright-core's do.
 */
export class Locator {
  constructor(page, steps) {
    this.page = page;
    this.steps = steps;
  }

  /** Elements matching selector under those of this locator; options.hasText keeps those whose text holds it (a string, any case, or a RegExp). */
  locator(selector, options = {}) {
    return new Locator(this.page, [...this.steps, { selector, hasText: textFilter(options.hasText) }]);
  }

  /** The i-th element of the last step (-1: the last). */
  nth(i) {
    const steps = this.steps.slice();
    steps[steps.length - 1] = { ...steps.at(-1), nth: i };
    return new Locator(this.page, steps);
  }

  /** The first element of the last step. */
  first() {
    return this.nth(0);
  }

  /** The last element of the last step. */
  last() {
    return this.nth(-1);
  }

  _probe(op, arg) {
    return this.page.raw.evaluate(probe, this.steps, op, arg ?? null);
  }

  /** Resolves once the first element is in state (attached, detached, visible by default, hidden). */
  async waitFor({ state = 'visible', timeout = TIMEOUT } = {}) {
    await this.page.raw.waitForFunction(probe, { timeout, polling: 'raf' }, this.steps, 'state', state);
  }

  /** How many elements match now. */
  count() {
    return this._probe('count');
  }

  /** Whether the first element is visible now (a box of some size, not visibility: hidden). */
  isVisible() {
    return this._probe('visible');
  }

  /** Whether the first element is hidden or missing now. */
  async isHidden() {
    return !(await this._probe('visible'));
  }

  /** The textContent of every matching element now. */
  allTextContents() {
    return this._probe('texts');
  }

  /** An attribute of the first element once it is attached (null when absent). */
  async getAttribute(name) {
    await this.waitFor({ state: 'attached' });
    return this._probe('attr', name);
  }

  /** The first element's textContent once it is attached. */
  async textContent() {
    await this.waitFor({ state: 'attached' });
    return this._probe('text');
  }

  /** fn(handle) on the first element's handle once it is in state; the handle is let go after. */
  async _withElement(state, fn) {
    await this.waitFor({ state });
    const all = await this.page.raw.evaluateHandle(probe, this.steps, 'all', null);
    const el = await all.evaluateHandle((els) => els[0]).finally(() => all.dispose());
    try {
      return await fn(el.asElement());
    } finally {
      await el.dispose();
    }
  }

  /** fn(element, arg) in the page on the first element. */
  evaluate(fn, arg) {
    return this._withElement('attached', (el) => el.evaluate(fn, arg));
  }

  /** fn(elements, arg) in the page on every element (none is fine). */
  async evaluateAll(fn, arg) {
    const all = await this.page.raw.evaluateHandle(probe, this.steps, 'all', null);
    try {
      return await all.evaluate(fn, arg);
    } finally {
      await all.dispose();
    }
  }

  /** A click in the middle of the first element once it is visible (scrolled into view first). */
  click() {
    return this._withElement('visible', (el) => el.click());
  }

  /** Focus the first element once it is attached. */
  focus() {
    return this._withElement('attached', (el) => el.focus());
  }

  /** Replace an input's value as typing would end: focus, value, an input event (as playwright-core's fill). */
  fill(value) {
    return this._withElement('visible', (el) => el.evaluate((node, v) => {
      node.focus();
      node.value = v;
      node.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: v }));
    }, value));
  }

  /** Pick the option of a select by value: input and change events, as a user's choice fires. */
  selectOption(value) {
    return this._withElement('visible', (el) => el.evaluate((node, v) => {
      node.value = v;
      node.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      node.dispatchEvent(new Event('change', { bubbles: true }));
    }, value));
  }
}
