// SPDX-License-Identifier: GPL-3.0-or-later
// Layout checks check_report.js runs with --layout, at each window width a reader might use
// (1400, 1000 and 800 px): DOM measurements of what the issue 32 report review saw by eye.
// Each returns a list of failures, empty when the page passes.
'use strict';

const WIDTHS = [1400, 1000, 800];

// Where a line may end inside a cell: after a space, a path separator or an underscore (the
// renderer puts a <wbr> after those), or a hyphen (where browsers break); anywhere else is a
// word cut in two. Timestamps are never wrapped (report.css: table.numbers).
const BREAKS_AFTER = ' \t\n/\\_-,';

// Tables whose cells are read for broken words: the small ones whole, the long ones' first
// body (the rows on screen; the others are not laid out, report.css: content-visibility).
const WORD_TABLES = ['groups-table', 'trend-table', 'speed-table', 'regressions-table', 'records-table',
                     'edited-table'];

async function measure(page, breaksAfter, tables) {
  return page.evaluate((breaks, tableIds) => {
    // Folded tables are opened, so that they are laid out and measured too.
    document.querySelectorAll('details').forEach((details) => { details.open = true; });
    const width = document.documentElement.clientWidth;
    const facts = {width, pageWidth: document.documentElement.scrollWidth, wide: [], brokenWords: []};
    // Every shown element ends inside the window, except inside a box that scrolls sideways
    // (the box itself must fit).
    for (const element of document.body.querySelectorAll('*')) {
      if (element.closest('.table-scroll') && !element.classList.contains('table-scroll')) continue;
      if (element.closest('table.blocks > tbody:not(:first-of-type)')) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.right > width + 0.5) {
        facts.wide.push(`${element.localName}${element.id ? '#' + element.id : ''}` +
                        `${element.className && typeof element.className === 'string' ? '.' +
                          element.className.split(' ').join('.') : ''} ends at ${Math.round(box.right)} px`);
      }
    }
    const range = document.createRange();
    for (const id of tableIds) {
      const table = document.getElementById(id);
      if (!table) continue;
      const cells = Array.from(table.tHead.rows[0].cells);
      const body = table.tBodies[0];
      if (body) for (const row of body.rows) cells.push(...row.cells);
      for (const cell of cells) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        let previous = null;  // the last character's box and the character
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let i = 0; i < node.length; ++i) {
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const box = range.getBoundingClientRect();
            if (box.height === 0) continue;
            if (previous && box.top > previous.box.top + previous.box.height / 2 &&
                !breaks.includes(previous.character) && !' \t\n'.includes(node.data[i])) {
              facts.brokenWords.push(`#${id}: "${cell.textContent.slice(0, 60)}" breaks after ` +
                                     `"${previous.character}"`);
            }
            previous = {box, character: node.data[i]};
          }
        }
      }
    }
    return facts;
  }, breaksAfter, tables);
}

// Sets each width in turn, measures, and takes OUT-<width>.png when `screenshot` is given.
async function checkLayout(page, screenshot) {
  const failures = [];
  for (const width of WIDTHS) {
    await page.setViewport({width, height: 1000});
    const facts = await measure(page, BREAKS_AFTER, WORD_TABLES);
    const at = `at ${width} px`;
    if (facts.pageWidth > facts.width) failures.push(`${at}: the page scrolls sideways (${facts.pageWidth} px wide)`);
    for (const wide of facts.wide.slice(0, 10)) failures.push(`${at}: wider than the window: ${wide}`);
    for (const broken of facts.brokenWords.slice(0, 10)) failures.push(`${at}: a word cut in two: ${broken}`);
    if (screenshot) {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewport({width, height: Math.min(height, 8000)});
      await page.screenshot({path: screenshot.replace(/\.png$/, '') + `-${width}.png`});
    }
  }
  await page.setViewport({width: 1280, height: 900});
  return failures;
}

module.exports = {checkLayout, WIDTHS};
