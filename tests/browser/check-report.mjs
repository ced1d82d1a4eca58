// Opens an ldd-sets report in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core), with the page's JavaScript disabled, and prints what it finds as JSON:
// every request the page made, every chart's rendered size and title, the marked words
// visible in the examples browser. Saves a screenshot. Run by tests/report.rs:
//
//   node tests/browser/check-report.mjs REPORT.html SHOT.png [--element CSS] [--width N] [--max-height N]
//
// With --element, the screenshot shows that element (clipped to --max-height pixels);
// otherwise the whole page.
import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const args = process.argv.slice(2);
if (args.length < 2) {
  console.error('usage: check-report.mjs REPORT.html SHOT.png [--element CSS] [--width N] [--max-height N]');
  process.exit(2);
}
const [report, shot] = args;
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const element = opt('--element', null);
const width = Number(opt('--width', '1280'));
const maxHeight = Number(opt('--max-height', '20000'));
const executablePath = process.env.LDD_CHROMIUM || '/usr/bin/chromium';

const url = pathToFileURL(path.resolve(report)).href;
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
const result = { url, requests: [], blocked: [], console: [], pageErrors: [] };
try {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width, height: 900 },
    serviceWorkers: 'block',
  });
  context.on('request', (r) => result.requests.push(r.url()));
  // Anything but the report itself is blocked (and recorded), so nothing can leave.
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (u === url) return route.continue();
    result.blocked.push(u);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => result.console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => result.pageErrors.push(String(e)));
  const response = await page.goto(url, { waitUntil: 'load' });
  result.loaded = response === null || response.ok();
  result.title = await page.title();
  const found = await page.evaluate(() => {
    const visible = (el) => el.checkVisibility();
    const charts = [...document.querySelectorAll('svg')].map((s) => {
      const r = s.getBoundingClientRect();
      const title = s.querySelector(':scope > title');
      const desc = s.querySelector(':scope > desc');
      return {
        id: s.id,
        title: title ? title.textContent : '',
        desc: desc ? desc.textContent : '',
        labelledby: s.getAttribute('aria-labelledby') || '',
        role: s.getAttribute('role') || '',
        width: r.width,
        height: r.height,
        shapes: s.querySelectorAll('path, polyline, polygon, rect, circle, line').length,
        texts: [...s.querySelectorAll('text')].map((t) => t.textContent).filter((t) => t.trim()).length,
        visible: visible(s),
      };
    });
    const marks = [...document.querySelectorAll('#examples section.ex mark')];
    const shownMarks = marks.filter(visible);
    const examples = [...document.querySelectorAll('#examples section.ex li')];
    const details = [...document.querySelectorAll('#examples section.ex details')];
    return {
      charts,
      figures: document.querySelectorAll('figure').length,
      sections: [...document.querySelectorAll('main > section')].map((s) => s.id),
      marks: marks.length,
      visibleMarks: shownMarks.length,
      visibleMarkWords: shownMarks.slice(0, 50).map((m) => m.firstChild ? m.firstChild.textContent : ''),
      visibleMarkClasses: [...new Set(shownMarks.map((m) => m.className))].sort(),
      examples: examples.length,
      visibleExamples: examples.filter(visible).length,
      moreControls: details.length,
      scripts: document.querySelectorAll('script').length,
      externalRefs: [...document.querySelectorAll('[src], link[href], [href^="http"]')].map((e) => e.outerHTML.slice(0, 120)),
      text: document.body.innerText.length,
    };
  });
  Object.assign(result, found);
  // "Show more" opens without script: the <details> element is native.
  if (found.moreControls > 0) {
    await page.locator('#examples section.ex details > summary').first().click();
    result.visibleExamplesAfterClick = await page.evaluate(
      () => [...document.querySelectorAll('#examples section.ex li')].filter((e) => e.checkVisibility()).length,
    );
  }
  if (element) {
    const box = await page.evaluate((sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return { y: r.top + window.scrollY, height: r.height };
    }, element);
    await page.screenshot({
      path: shot,
      fullPage: true,
      clip: { x: 0, y: box.y, width, height: Math.min(box.height, maxHeight) },
    });
  } else {
    await page.screenshot({ path: shot, fullPage: true });
  }
  result.screenshot = shot;
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
