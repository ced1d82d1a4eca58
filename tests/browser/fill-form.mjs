// Fills in an ldd-sets annotation form (form.html) in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core) as an annotator would — clicking one answer
// per item and typing a comment — then clicks each sheet's Save button and stores the
// file the browser saves. Prints JSON: what was saved where, the requests the page made,
// page errors. Run by tests/judge.rs:
//
//   node tests/browser/fill-form.mjs FORM.html OUTDIR
//
// Item k (0-based, per sheet) gets answer number k % (number of answers); item 0 gets the
// comment `says "so", twice`.
import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [form, outdir] = process.argv.slice(2);
if (!form || !outdir) {
  console.error('usage: fill-form.mjs FORM.html OUTDIR');
  process.exit(2);
}
const url = pathToFileURL(path.resolve(form)).href;
const browser = await chromium.launch({
  executablePath: process.env.LDD_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
const result = { url, requests: [], blocked: [], pageErrors: [], saved: {} };
try {
  const context = await browser.newContext({ acceptDownloads: true, serviceWorkers: 'block' });
  context.on('request', (r) => result.requests.push(r.url()));
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (u === url || u.startsWith('blob:')) return route.continue();
    result.blocked.push(u);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => result.pageErrors.push(String(e)));
  await page.goto(url, { waitUntil: 'load' });
  for (const id of ['detection', 'translation']) {
    if ((await page.locator(`#${id}`).count()) === 0) continue;
    const items = page.locator(`#${id} .item`);
    const n = await items.count();
    for (let k = 0; k < n; k++) {
      const radios = items.nth(k).locator('input[type=radio]');
      const m = await radios.count();
      await radios.nth(k % m).check();
      if (k === 0) await items.nth(k).locator('input.comment').fill('says "so", twice');
    }
    result[`${id}Count`] = await page.locator(`#${id}-count`).textContent();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`#${id}-save`),
    ]);
    const file = path.join(outdir, download.suggestedFilename());
    await download.saveAs(file);
    result.saved[id] = file;
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
