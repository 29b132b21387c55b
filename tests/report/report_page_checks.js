// SPDX-License-Identifier: GPL-3.0-or-later
// The checks check_report.js runs on an open report page (puppeteer-core Page). Each returns
// a list of failures, empty when the page passes.
'use strict';

// Every element the renderer writes; anything else in the page was injected by the data.
const ALLOWED_ELEMENTS = new Set([
  'html', 'head', 'meta', 'title', 'script', 'style', 'body', 'header', 'main', 'footer', 'section', 'h1',
  'h2', 'p', 'span', 'b', 'dl', 'dt', 'dd', 'div', 'ul', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  'details', 'summary', 'figure', 'figcaption', 'canvas', 'noscript', 'input', 'label', 'wbr',
]);
// The early class switch, the chart data, Chart.js, the page's script.
const EXPECTED_SCRIPTS = ['classic', 'application/json', 'classic', 'classic'];
const RECORD_COLUMNS = 12;

function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

async function checkStructure(page, options, scripted) {
  const failures = [];
  const facts = await page.evaluate((literals, cells) => {
    const rows = {};
    for (const table of document.querySelectorAll('table')) {
      rows[table.id] = table.querySelectorAll(':scope > tbody > tr').length;
    }
    // Not the body's: its scripts hold the chart data, where the strings are escaped.
    const text = [document.title, document.querySelector('header')?.textContent,
                  document.querySelector('main')?.textContent].join('\n');
    return {
      rows,
      recordRowsWithOtherCellCounts: Array.from(document.querySelectorAll('#records-table > tbody > tr'))
                                          .filter((row) => row.cells.length !== cells).length,
      elements: Array.from(new Set(Array.from(document.querySelectorAll('*')).map((e) => e.localName))),
      scripts: Array.from(document.scripts).map((s) => s.type || 'classic'),
      banner: document.getElementById('regressions-banner')?.textContent ?? null,
      noRegressions: document.getElementById('no-regressions')?.textContent ?? null,
      injected: window.__injected ?? null,
      htmlClass: document.documentElement.className,
      filterHidden: document.getElementById('records-filter')?.hidden ?? null,
      filterCount: document.getElementById('filter-count')?.textContent ?? null,
      chartBoxesShown: Array.from(document.querySelectorAll('.chart-box'))
                            .filter((box) => getComputedStyle(box).display !== 'none').length,
      missingLiterals: literals.filter((literal) => !text.includes(literal)),
      editedSection: document.getElementById('answers-edited') !== null,
      // Changed records whose score cell does not say where it came from (baseline → now).
      changedWithoutBaseline: Array.from(document.querySelectorAll('#records-table > tbody > tr.changed:not(.err)'))
                                   .filter((row) => !row.cells[5].textContent.includes('\u2192')).length,
    };
  }, options.literals, RECORD_COLUMNS);

  const records = facts.rows['records-table'];
  if (records !== options.records) failures.push(`the records table has ${records} rows, not ${options.records}`);
  if (facts.recordRowsWithOtherCellCounts > 0) {
    failures.push(`${facts.recordRowsWithOtherCellCounts} record rows do not have ${RECORD_COLUMNS} cells`);
  }
  for (const table of ['groups-table', 'records-table']) {
    if (facts.rows[table] === undefined) failures.push(`no table #${table}`);
  }
  const foreign = facts.elements.filter((name) => !ALLOWED_ELEMENTS.has(name));
  if (foreign.length > 0) failures.push(`elements the renderer never writes: ${foreign.join(', ')}`);
  if (JSON.stringify(facts.scripts) !== JSON.stringify(EXPECTED_SCRIPTS)) {
    failures.push(`scripts ${JSON.stringify(facts.scripts)}, expected ${JSON.stringify(EXPECTED_SCRIPTS)}`);
  }
  if (facts.injected !== null) failures.push(`injected code ran (window.__injected = ${facts.injected})`);
  for (const literal of facts.missingLiterals) failures.push(`not shown literally: ${JSON.stringify(literal)}`);

  if (options.regressions > 0) {
    const expected = `${grouped(options.regressions)} regression${options.regressions === 1 ? '' : 's'}`;
    if (facts.banner === null || !facts.banner.startsWith(expected)) {
      failures.push(`regression banner ${JSON.stringify(facts.banner)}, expected it to start with "${expected}"`);
    }
    if (facts.rows['regressions-table'] !== options.regressions) {
      failures.push(`the regressions table has ${facts.rows['regressions-table']} rows, not ${options.regressions}`);
    }
    if (facts.noRegressions !== null) failures.push('"no regressions" shown next to regressions');
  } else if (options.regressions === 0) {
    if (facts.banner !== null) failures.push(`regression banner ${JSON.stringify(facts.banner)} where none was planted`);
    if (facts.noRegressions === null || !facts.noRegressions.startsWith('No regressions')) {
      failures.push(`no "No regressions" banner (found ${JSON.stringify(facts.noRegressions)})`);
    }
  }

  if (options.edited !== undefined) {
    const edited = facts.rows['edited-table'];
    if (options.edited === 0 && facts.editedSection) failures.push('an "Answers edited" section where none was planted');
    if (options.edited > 0 && edited !== options.edited) {
      failures.push(`the answers edited table has ${edited} rows, not ${options.edited}`);
    }
    if (facts.changedWithoutBaseline > 0) {
      failures.push(`${facts.changedWithoutBaseline} changed records do not show their baseline score`);
    }
  }

  if (scripted) {
    if (facts.htmlClass !== 'js') failures.push(`<html> class "${facts.htmlClass}", expected "js"`);
    if (facts.filterHidden !== false) failures.push('the records filter is not shown');
    const expected = `showing ${grouped(options.records)} of ${grouped(options.records)} records`;
    if (facts.filterCount !== expected) failures.push(`filter count "${facts.filterCount}", expected "${expected}"`);
  } else {
    if (facts.htmlClass !== 'no-js') failures.push(`<html> class "${facts.htmlClass}", expected "no-js"`);
    if (facts.filterHidden !== true) failures.push('the records filter is shown although it cannot work');
    if (facts.chartBoxesShown > 0) failures.push(`${facts.chartBoxesShown} empty chart boxes shown`);
  }
  return {failures, rows: facts.rows};
}

async function checkCharts(page, expected) {
  const failures = [];
  const facts = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('report-data').textContent);
    const needed = data.histograms.filter((h) => h.bins.length > 0).length + (data.trend.series.length > 0 ? 1 : 0) +
                   (data.trend.throughput.some((v) => v !== null) ? 1 : 0) + (data.speed.length > 0 ? 1 : 0);
    const canvases = Array.from(document.querySelectorAll('canvas')).map((canvas) => {
      const chart = window.Chart ? window.Chart.getChart(canvas) : undefined;
      const {width, height} = canvas;
      let coloured = 0;
      if (chart && width > 0 && height > 0) {
        // The plot area only (a few pixels more for points on its edge): the legend's swatches
        // are coloured too, and are drawn with no data at all.
        const ratio = chart.currentDevicePixelRatio;
        const area = chart.chartArea;
        const left = Math.max(0, Math.floor((area.left - 4) * ratio));
        const top = Math.max(0, Math.floor((area.top - 4) * ratio));
        const right = Math.min(width, Math.ceil((area.right + 4) * ratio));
        const bottom = Math.min(height, Math.ceil((area.bottom + 4) * ratio));
        const pixels = canvas.getContext('2d').getImageData(left, top, right - left, bottom - top).data;
        // Axes, grid and labels are grey; only the data is drawn in the palette's colours.
        for (let i = 0; i < pixels.length; i += 4) {
          const r = pixels[i], g = pixels[i + 1], b = pixels[i + 2];
          if (pixels[i + 3] > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 30) ++coloured;
        }
      }
      return {name: `${canvas.dataset.chart}[${canvas.dataset.index}]`, chart: chart !== undefined, width, height,
              coloured, elements: chart ? chart.getDatasetMeta(0).data.length : 0};
    });
    return {needed, canvases};
  });
  if (facts.canvases.length !== facts.needed) {
    failures.push(`${facts.canvases.length} charts, while the page's data has ${facts.needed} to draw`);
  }
  if (expected !== undefined && facts.canvases.length !== expected) {
    failures.push(`${facts.canvases.length} charts, expected ${expected}`);
  }
  for (const canvas of facts.canvases) {
    if (!canvas.chart) failures.push(`${canvas.name}: no chart on the canvas`);
    else if (canvas.width === 0 || canvas.height === 0) failures.push(`${canvas.name}: ${canvas.width}x${canvas.height}`);
    else if (canvas.elements === 0) failures.push(`${canvas.name}: no data drawn`);
    else if (canvas.coloured < 20) failures.push(`${canvas.name}: blank (${canvas.coloured} coloured pixels in the plot)`);
  }
  return failures;
}

async function columnIndex(page, tableId, title) {
  return page.evaluate((id, text) => Array.from(document.querySelectorAll(`#${id} thead th`))
                                         .findIndex((th) => th.textContent === text), tableId, title);
}

// Clicks the header `title` of the records table, then checks the column's order.
async function sortAndCheck(page, title, numeric, direction) {
  const index = await columnIndex(page, 'records-table', title);
  if (index < 0) return [`no "${title}" column`];
  await page.click(`#records-table thead th:nth-child(${index + 1})`);
  return page.evaluate((column, isNumeric, wanted) => {
    const header = document.querySelectorAll('#records-table thead th')[column];
    const values = Array.from(document.querySelectorAll('#records-table > tbody > tr'))
                        .map((row) => row.cells[column]?.textContent ?? '');
    const failures = [];
    if (header.getAttribute('aria-sort') !== wanted) {
      failures.push(`after a click, ${header.textContent} is "${header.getAttribute('aria-sort')}", not ${wanted}`);
    }
    const firstEmpty = values.indexOf('');
    if (firstEmpty >= 0 && values.slice(firstEmpty).some((v) => v !== '')) {
      failures.push(`${header.textContent}: empty cells are not all last`);
    }
    const filled = values.filter((v) => v !== '');
    const collator = new Intl.Collator(undefined, {numeric: true});
    const compare = isNumeric ? (a, b) => Number(a) - Number(b) : (a, b) => collator.compare(a, b);
    const sign = wanted === 'ascending' ? 1 : -1;
    for (let i = 1; i < filled.length; ++i) {
      if (sign * compare(filled[i - 1], filled[i]) > 0) {
        failures.push(`${header.textContent} ${wanted}: "${filled[i - 1]}" before "${filled[i]}" (row ${i})`);
        break;
      }
    }
    return failures;
  }, index, numeric, direction);
}

async function checkSorting(page) {
  return [
    ...(await sortAndCheck(page, 'Score', true, 'ascending')),
    ...(await sortAndCheck(page, 'Score', true, 'descending')),
    ...(await sortAndCheck(page, 'Answer', false, 'ascending')),
    // line:column, in the numeric collation (9:1 before 10:3), places before the empty cells.
    ...(await sortAndCheck(page, 'Place', false, 'ascending')),
  ];
}

// Which rows are shown, and which the filter should show: `expected` names a predicate on a
// row written from its cells' text, independently of how the page marks its rows.
async function filterState(page, expected, value) {
  return page.evaluate((name, text) => {
    const predicates = {
      all: () => true,
      errors: (row) => (row.cells[11]?.textContent ?? '') !== '',
      changed: (row) => row.cells[9]?.textContent === 'yes',
      text: (row) => row.textContent.toLowerCase().includes(text.trim().toLowerCase()),
    };
    predicates.textAndErrors = (row) => predicates.text(row) && predicates.errors(row);
    const rows = Array.from(document.querySelectorAll('#records-table > tbody > tr'));
    // Shown as the row's and its body's hidden attributes say; and for up to 2,000 rows spread
    // over the table, as the browser renders them (style could override the attributes).
    // Asking the browser for every row would style all 10^5 of them.
    const shown = rows.map((row) => !row.hidden && !row.parentElement.hidden);
    const step = Math.max(1, Math.floor(rows.length / 2000));
    let rendering = 0;
    for (let i = 0; i < rows.length; i += step) rendering += rows[i].checkVisibility() !== shown[i];
    const expected = rows.map((row) => predicates[name](row));
    return {
      shown: shown.filter((visible) => visible).length,
      wrong: rows.filter((row, i) => shown[i] !== expected[i]).length,
      rendering,
      matching: expected.filter((match) => match).length,
      count: document.getElementById('filter-count').textContent,
      total: rows.length,
    };
  }, expected, value);
}

async function checkFilter(page, name, toggle, predicate, value, failures) {
  await toggle();
  const state = await filterState(page, predicate, value);
  if (state.wrong > 0) failures.push(`${name}: ${state.wrong} rows shown or hidden wrongly (${state.shown} shown)`);
  if (state.rendering > 0) failures.push(`${name}: ${state.rendering} rows rendered otherwise than marked`);
  const expected = `showing ${grouped(state.matching)} of ${grouped(state.total)} records`;
  if (state.count !== expected) failures.push(`${name}: count "${state.count}", expected "${expected}"`);
  return state;
}

// Types into the filter box (or clears it) and waits until the page has applied that text:
// the filter waits for typing to pause, then marks the count with what it filtered by.
async function setFilterText(page, text) {
  await page.$eval('#filter-text', (input) => { input.value = ''; });
  if (text === '') {
    await page.$eval('#filter-text', (input) => input.dispatchEvent(new Event('input')));
  } else {
    await page.type('#filter-text', text);
  }
  await page.waitForFunction((applied) => document.getElementById('filter-count').dataset.filter === applied,
                             {timeout: 60000}, text.trim().toLowerCase());
}

async function checkFiltering(page) {
  const failures = [];
  const total = await page.evaluate(() => document.querySelectorAll('#records-table > tbody > tr').length);
  await checkFilter(page, 'errors only', () => page.click('#filter-errors'), 'errors', '', failures);
  await checkFilter(page, 'errors only, off again', () => page.click('#filter-errors'), 'all', '', failures);
  await checkFilter(page, 'changed only', () => page.click('#filter-changed'), 'changed', '', failures);
  await checkFilter(page, 'changed only, off again', () => page.click('#filter-changed'), 'all', '', failures);
  if (total === 0) return failures;
  // Text: part of a row's first cell, typed in upper case (the filter ignores case).
  const needle = await page.evaluate(() => {
    const rows = document.querySelectorAll('#records-table > tbody > tr');
    return rows[Math.floor(rows.length / 2)].cells[0].textContent.slice(0, 24).toUpperCase();
  });
  const typed = await checkFilter(page, `text "${needle}"`, () => setFilterText(page, needle), 'text', needle, failures);
  if (typed.matching === 0) failures.push(`text "${needle}": not even the row it came from matches`);
  await checkFilter(page, 'text and errors only', () => page.click('#filter-errors'), 'textAndErrors', needle, failures);
  await checkFilter(page, 'text, errors only off', () => page.click('#filter-errors'), 'text', needle, failures);
  await checkFilter(page, 'text cleared', () => setFilterText(page, ''), 'all', '', failures);
  return failures;
}

module.exports = {checkStructure, checkCharts, checkSorting, checkFiltering};
