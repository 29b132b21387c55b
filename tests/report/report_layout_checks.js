// SPDX-License-Identifier: GPL-3.0-or-later
// Layout checks check_report.js runs with --layout, at each window width a reader might use
// (1400, 1000 and 800 px): DOM measurements of what the issue 32 report review saw by eye
// (overflow, words cut in two, overlapping tick labels; the trends' one-run bars and
// per-series scale).
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
            if (box.height === 0) {  // a space collapsed at the end of a line: a break after it is fine
              if (previous) previous.character = node.data[i];
              continue;
            }
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

// Chart.js's x axes: consecutive tick labels shown must not touch (level labels: the half
// widths; slanted ones: the gap across the slant against the line height).
async function overlappingTicks(page) {
  return page.evaluate(() => {
    const found = [];
    const context = document.createElement('canvas').getContext('2d');
    for (const canvas of document.querySelectorAll('canvas[data-chart]')) {
      const chart = window.Chart && window.Chart.getChart(canvas);
      if (!chart || !chart.scales.x) continue;
      const scale = chart.scales.x;
      const font = window.Chart.helpers.toFont(scale.options.ticks.font);
      context.font = font.string;
      const angle = Math.abs(scale.labelRotation || 0) * Math.PI / 180;
      const ticks = scale.ticks;
      for (let i = 1; i < ticks.length; ++i) {
        const label = (tick) => [].concat(tick.label).join(' ');
        const gap = Math.abs(scale.getPixelForTick(i) - scale.getPixelForTick(i - 1));
        const needed = angle < 0.01
          ? (context.measureText(label(ticks[i - 1])).width + context.measureText(label(ticks[i])).width) / 2
          : font.lineHeight / Math.sin(angle);
        if (gap < needed) {
          found.push(`${canvas.dataset.chart}[${canvas.dataset.index}]: "${label(ticks[i - 1])}" and ` +
                     `"${label(ticks[i])}" overlap (${gap.toFixed(1)} px apart, ${needed.toFixed(1)} needed)`);
          break;
        }
      }
    }
    return found;
  });
}

// The trends: one run is drawn as bars, not lone dots; with several, "each game/source on its
// own scale" spreads every series that varies over at least half the plot's height.
async function checkTrends(page) {
  const failures = [];
  const shape = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('report-data').textContent);
    const charts = ['trend-score', 'trend-throughput'].map((kind) => {
      const canvas = document.querySelector(`canvas[data-chart="${kind}"]`);
      const chart = canvas && window.Chart.getChart(canvas);
      if (!chart) return null;
      const elements = chart.getDatasetMeta(0).data;
      return {kind, type: chart.config.type, width: elements.length ? Math.min(...elements.map((e) => e.width || 0)) : 0};
    }).filter((chart) => chart !== null);
    return {runs: data.trend.runs.length, charts, ownScale: document.getElementById('trend-own-scale') !== null};
  });
  if (shape.runs === 1) {
    for (const chart of shape.charts) {
      if (chart.type !== 'bar' || chart.width < 8) failures.push(`${chart.kind}: one run drawn as ${chart.type}, not bars`);
    }
  }
  if (shape.runs > 1 && shape.charts.some((chart) => chart.kind === 'trend-score')) {
    if (!shape.ownScale) return failures.concat(['no "each game/source on its own scale" switch for the score trend']);
    await page.click('#trend-own-scale');
    const spans = await page.evaluate(() => {
      const chart = window.Chart.getChart(document.querySelector('canvas[data-chart="trend-score"]'));
      const height = chart.chartArea.bottom - chart.chartArea.top;
      const data = JSON.parse(document.getElementById('report-data').textContent);
      return chart.data.datasets.map((dataset, i) => {
        const values = data.trend.series[i].values.filter((v) => v !== null);
        const ys = chart.getDatasetMeta(i).data.filter((point, j) => dataset.data[j] !== null).map((point) => point.y);
        return {label: dataset.label, varies: new Set(values).size > 1,
                share: ys.length ? (Math.max(...ys) - Math.min(...ys)) / height : 0};
      });
    });
    for (const span of spans) {
      if (span.varies && span.share < 0.5) {
        failures.push(`own scale: ${span.label} spans ${(100 * span.share).toFixed(0)}% of the plot's height`);
      }
    }
    await page.click('#trend-own-scale');  // back to the common scale
  }
  return failures;
}

// Sets each width in turn, measures, and takes OUT-<width>.png when `screenshot` is given.
async function checkLayout(page, screenshot) {
  const failures = [];
  for (const width of WIDTHS) {
    await page.setViewport({width, height: 1000});
    // Chart.js resizes its charts on the next frames (a ResizeObserver): wait until each is
    // as wide as its box, at most a few seconds.
    await page.waitForFunction(() => Array.from(document.querySelectorAll('canvas[data-chart]')).every((canvas) => {
      const chart = window.Chart && window.Chart.getChart(canvas);
      return !chart || Math.abs(chart.width - canvas.parentElement.clientWidth) < 1;
    }), {timeout: 5000, polling: 'raf'}).catch(() => failures.push(`at ${width} px: the charts were not resized`));
    const facts = await measure(page, BREAKS_AFTER, WORD_TABLES);
    const at = `at ${width} px`;
    if (facts.pageWidth > facts.width) failures.push(`${at}: the page scrolls sideways (${facts.pageWidth} px wide)`);
    for (const wide of facts.wide.slice(0, 10)) failures.push(`${at}: wider than the window: ${wide}`);
    for (const broken of facts.brokenWords.slice(0, 10)) failures.push(`${at}: a word cut in two: ${broken}`);
    for (const overlap of (await overlappingTicks(page)).slice(0, 10)) failures.push(`${at}: tick labels: ${overlap}`);
    if (screenshot) {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewport({width, height: Math.min(height, 8000)});
      await page.screenshot({path: screenshot.replace(/\.png$/, '') + `-${width}.png`});
    }
  }
  await page.setViewport({width: 1280, height: 900});
  return failures.concat(await checkTrends(page));
}

module.exports = {checkLayout, WIDTHS};
