// Opens an ldd-sets report in headless Chromium with the page's JavaScript disabled and
// drives its locus item browser (the radio-button filters of #loci, pure CSS): for each
// step, every group is set back to "all", then the step's radio buttons are clicked
// through their labels. Prints, per step, the visible items (phenomenon and line, from
// each item's first line) as JSON. Run by tests/locus.rs:
//
//   node tests/browser/filter-loci.mjs REPORT.html STEPS.json SHOT.png
//
// STEPS.json: [["f-p1"], ["f-p1", "f-s1-i"], ...] (radio ids; [] for no filter). The
// screenshot shows the browser after the last step.
import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [report, stepsFile, shot] = process.argv.slice(2);
if (!shot) {
  console.error('usage: filter-loci.mjs REPORT.html STEPS.json SHOT.png');
  process.exit(2);
}
const steps = JSON.parse(readFileSync(stepsFile, 'utf8'));
const url = pathToFileURL(path.resolve(report)).href;
const browser = await chromium.launch({
  executablePath: process.env.LDD_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const result = { steps: [] };
try {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  result.groups = await page.evaluate(() =>
    [...document.querySelectorAll('#loci fieldset')].map((f) => ({
      legend: f.querySelector('legend').textContent,
      radios: [...f.querySelectorAll('input[type=radio]')].map((r) => ({
        id: r.id,
        label: r.closest('label').textContent.trim(),
      })),
    })),
  );
  for (const step of steps) {
    for (const g of result.groups) {
      await page.locator(`label:has(#${g.radios[0].id})`).click();
    }
    for (const id of step) {
      // A click on the label, as a reader does.
      await page.locator(`label:has(#${id})`).click();
    }
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll('#loci li.locus')]
        .filter((li) => li.checkVisibility())
        .map((li) => li.querySelector('.where').textContent),
    );
    const checked = await page.evaluate(() =>
      [...document.querySelectorAll('#loci input[type=radio]:checked')].map((r) => r.id),
    );
    result.steps.push({ step, checked, shown });
  }
  await page.locator('#loci').screenshot({ path: shot });
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
