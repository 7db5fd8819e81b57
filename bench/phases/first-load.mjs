// Phase: first load of the two screens people land on, in a real Chromium: the JavaScript
// downloaded before the screen is usable (gzip, as the server sends it to a gzip-only client) and the
// time until it is usable, from the navigation start to the first frame where the control is on screen
// and enabled (the sign-in form's submit button, the chat's message box). Cold: an empty cache; warm: a
// normal browser profile on disk coming back (HTTP cache and V8's code cache, as a returning visitor's
// browser); warm private: a private context coming back (HTTP cache only: the scripts are compiled
// again on every load). Needs the built frontend (frontend/dist) and Chromium
// (CHROMIUM_PATH, else /usr/bin/chromium); skipped, with the reason, when either is missing.
// e2e/tests/first-load.spec.ts reports the same figures from the Playwright suite.
//
// Warm loads are opened in a new tab each (as a returning visitor opening the app) and, `reload`, in the
// same tab again and again (a visitor reloading it, or following a link back to it): the tab keeps its
// renderer process, whose in-memory copy of the compiled scripts V8 reuses, where a new tab starts a
// process and parses every module again (Chromium does not use its code cache for module scripts).
//
// The baseline, measured in the same profile and alternating with each screen's warm loads: a blank page
// (the two controls in plain HTML, no script, no style) from a bare node http server, sent with the app's
// own security headers (Cross-Origin-Opener-Policy among them: opening a page that sends it puts the
// tab in a new browsing context group, with a renderer process of its own, ~140 ms of a new tab here).
// Its warm load is the browser's own floor on this machine at this minute (the navigation, a new page's
// renderer, the first frame), so `warm / blank` compares runs made on a quiet and on a busy machine, and
// `warm - blank` is the time the app itself adds.
/* global window, document, requestAnimationFrame -- watchUsable and the evaluate callbacks run in the page */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { appPageHeaders, startBlankPage } from '../../e2e/fixtures/blank-page.mjs';
import { ROOT } from '../lib/config.mjs';
import { fmt, table } from '../lib/output.mjs';
import { ratio, summarize } from '../lib/stats.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const COLD_RUNS = 3;
const WARM_RUNS = 5;
const SCREENS = [
  {
    name: 'sign-in',
    path: '/',
    usable: 'form#signIn button[type="submit"]:not([disabled])',
    signedIn: false,
  },
  { name: 'chat', path: '/chat', usable: 'textarea[aria-label="Message"]:not([disabled])', signedIn: true },
];

/** In the page: the first animation frame where `selector` matches an element on screen. */
function watchUsable(selector) {
  const state = { usableAt: null };
  window.__firstLoad = state;
  const check = () => {
    const box = document.querySelector(selector)?.getBoundingClientRect();
    if (box && box.width > 0 && box.height > 0) state.usableAt = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/**
 * How long the first visit of a normal profile stays on the page: a visit, not a bounce, so the app has
 * kept what it keeps for the next one (the computed theme, frontend/src/boot/themeCache.ts).
 */
const FIRST_VISIT_MS = 4_000;

/** One load in a new tab; with `page`, one more load in that tab (a reload, it being at that address). */
async function load(context, base, screen, stayMs = 0, path = screen.path, page = null) {
  const tab = page ?? (await context.newPage());
  try {
    if (!page) await tab.addInitScript(watchUsable, screen.usable);
    return await measureLoad(tab, `${base}${path}`, stayMs);
  } finally {
    if (!page) await tab.close();
  }
}

async function measureLoad(page, url, stayMs) {
  await page.goto(url);
  await page.waitForFunction(() => window.__firstLoad?.usableAt != null, undefined, { timeout: 30_000 });
  if (stayMs) await page.waitForTimeout(stayMs);
  return await page.evaluate(() => {
    const usableMs = window.__firstLoad.usableAt;
    const scripts = performance
      .getEntriesByType('resource')
      .filter((e) => /\.m?js$/.test(new URL(e.name).pathname) && e.responseEnd <= usableMs);
    return {
      usableMs,
      scripts: scripts.map((e) => new URL(e.name).pathname),
      transferred: scripts.reduce((sum, e) => sum + e.transferSize, 0),
    };
  });
}

async function gzipBytes(base, paths) {
  let total = 0;
  for (const path of new Set(paths)) {
    const res = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'gzip' } });
    const body = Buffer.from(await res.arrayBuffer());
    // Node's fetch decodes the body: the header says what went over the wire.
    const length = Number(res.headers.get('content-length'));
    const gzipped = res.headers.get('content-encoding') === 'gzip' && length > 0;
    total += gzipped ? length : gzipSync(body, { level: 9 }).length;
  }
  return total;
}

/** The bench user's first chat holds a short conversation, so the chat opens on a thread. */
async function seedConversation({ api, newChat }) {
  const chatId = await newChat('first load');
  for (const content of ['hello', 'and again']) {
    await api.call('POST', `/api/chats/${chatId}/messages`, { content }, 201);
    for (let i = 0; i < 100; i++) {
      const page = await api.call('GET', `/api/chats/${chatId}/messages?limit=50`, undefined, 200);
      if (!page.pendingReply) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

export const firstLoad = {
  key: 'firstLoad',
  title: 'First load: JavaScript and time until the sign-in form and the chat are usable (Chromium)',

  async measure(ctx, result) {
    const missing = !existsSync(join(ROOT, 'frontend', 'dist', 'index.html'))
      ? 'no frontend build (npm run build)'
      : !existsSync(CHROMIUM)
        ? `no Chromium at ${CHROMIUM} (CHROMIUM_PATH)`
        : null;
    if (missing) {
      result.skipped = missing;
      return;
    }
    const { chromium } = await import('@playwright/test');
    const launchOptions = {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    };
    const browser = await chromium.launch(launchOptions);
    const blank = await startBlankPage(await appPageHeaders(ctx.app.base));
    try {
      await seedConversation(ctx);
      const base = ctx.app.base;
      const signIn = async (context, screen) => {
        if (!screen.signedIn) return;
        const res = await context.request.post(`${base}/api/auth/login`, {
          data: { email: 'bench@example.com', password: 'bench-password-1' },
        });
        if (res.status() !== 200) throw new Error(`login answered ${res.status()}`);
      };
      result.screens = [];
      for (const screen of SCREENS) {
        const cold = [];
        const warmPrivate = [];
        for (let run = 0; run < COLD_RUNS; run++) {
          const context = await browser.newContext();
          try {
            await signIn(context, screen);
            cold.push(await load(context, base, screen));
            if (run === 0)
              for (let w = 0; w < WARM_RUNS; w++) warmPrivate.push(await load(context, base, screen));
          } finally {
            await context.close();
          }
        }
        const warm = [];
        const blankWarm = [];
        const reload = [];
        const blankReload = [];
        const profileDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-profile-'));
        const profile = await chromium.launchPersistentContext(profileDir, launchOptions);
        try {
          await signIn(profile, screen);
          await load(profile, base, screen, FIRST_VISIT_MS);
          await load(profile, blank.base, screen, 0, '/');
          for (let w = 0; w < WARM_RUNS; w++) {
            blankWarm.push(await load(profile, blank.base, screen, 0, '/'));
            warm.push(await load(profile, base, screen));
          }
          // Reloads: a tab for each, loaded once, then again and again, alternating.
          const appTab = await profile.newPage();
          const blankTab = await profile.newPage();
          await appTab.addInitScript(watchUsable, screen.usable);
          await blankTab.addInitScript(watchUsable, screen.usable);
          await load(profile, base, screen, 0, screen.path, appTab);
          await load(profile, blank.base, screen, 0, '/', blankTab);
          for (let w = 0; w < WARM_RUNS; w++) {
            blankReload.push(await load(profile, blank.base, screen, 0, '/', blankTab));
            reload.push(await load(profile, base, screen, 0, screen.path, appTab));
          }
        } finally {
          await profile.close();
          rmSync(profileDir, { recursive: true, force: true });
        }
        result.screens.push({
          name: screen.name,
          scripts: cold[0].scripts.length,
          gzipKb: (await gzipBytes(base, cold[0].scripts)) / 1024,
          sentKb: cold[0].transferred / 1024,
          cold: summarize(cold.map((s) => s.usableMs)),
          warm: summarize(warm.map((s) => s.usableMs)),
          warmPrivate: summarize(warmPrivate.map((s) => s.usableMs)),
          blankWarm: summarize(blankWarm.map((s) => s.usableMs)),
          reload: summarize(reload.map((s) => s.usableMs)),
          blankReload: summarize(blankReload.map((s) => s.usableMs)),
        });
      }
    } finally {
      blank.close();
      await browser.close();
    }
  },

  print(result) {
    console.log('\nFirst load (goals: sign-in ≤ 150 KB gzip, chat ≤ 250 KB; chat usable ≤ 500 ms warm)');
    if (result.skipped) {
      console.log(`  skipped: ${result.skipped}`);
      return;
    }
    console.log(
      table(
        [
          'screen',
          'JS gzip (KB)',
          'JS sent cold (KB)',
          'files',
          'usable cold p50 (ms)',
          'usable warm p50 (ms)',
          'warm private p50 (ms)',
          'blank page warm p50 (ms)',
          'warm / blank',
          'warm - blank (ms)',
          'reload p50 (ms)',
          'blank reload p50 (ms)',
          'reload / blank',
        ],
        result.screens.map((s) => [
          s.name,
          fmt(s.gzipKb),
          fmt(s.sentKb),
          s.scripts,
          fmt(s.cold.p50),
          fmt(s.warm.p50),
          fmt(s.warmPrivate.p50),
          fmt(s.blankWarm.p50),
          `${ratio(s.warm.p50, s.blankWarm.p50)}x`,
          fmt(s.warm.p50 - s.blankWarm.p50),
          fmt(s.reload.p50),
          fmt(s.blankReload.p50),
          `${ratio(s.reload.p50, s.blankReload.p50)}x`,
        ]),
      ),
    );
    console.log(
      '  warm: a new tab each time; reload: the same tab again (it keeps its renderer and compiled scripts)\n' +
        "  blank page: the two controls in plain HTML from a bare node server with the app's security headers,\n" +
        "  loaded in the same profile alternately with the screen's loads: the browser's own floor at this minute",
    );
  },
};
