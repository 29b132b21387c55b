#!/usr/bin/env node
// SPDX-License-Identifier: GPL-3.0-or-later
// Opens a weightspace HTML report in headless Chromium and checks it as a reader would see it.
//
//   NODE_PATH=<build>/tests/report/node/node_modules node tests/report/check_report.js REPORT.html
//       --records N [--regressions N | --no-regressions] [--charts N] [--literals FILE.json]
//       [--screenshot OUT.png] [--chromium PATH] [--max-load-ms MS] [--layout] [--edited N]
//
// (<build>/tests/report/node is where the build's `npm ci` put puppeteer-core: the target
// report_browser_test_deps.) With the page's script on, it checks: no console error, no page
// error, no request but the file itself (and data: URLs); the records table has N rows of 12
// cells; the banner says N regressions, or "No regressions"; every chart (N of them when
// --charts is given, else as many as the page's data calls for) is drawn, with coloured data
// pixels on its canvas; only the page's own elements and scripts exist, and nothing the data
// could inject ran; each string in the JSON array in FILE.json appears literally in the page;
// a click on a header sorts the records, and the filter box and "errors only" / "changed
// only" show exactly the matching rows. With --edited N: an "Answers edited" table of N rows
// (none when 0), and every changed record's score reads "baseline → now". With --layout, at 1400, 1000 and 800 px: the page
// never scrolls sideways, nothing ends outside the window (but inside a box that scrolls), no
// table cell cuts a word in two (report_layout_checks.js); with --screenshot OUT.png, also
// OUT-1400.png, OUT-1000.png, OUT-800.png. Then with scripts off: the same tables and row counts.
// Prints one JSON line of measurements (size, load times) and exits 0; on any failure prints
// each and exits 1; 2 for a usage error. Chromium failing to start is a failure, with its error.
'use strict';
const fs = require('fs');
const path = require('path');
const {pathToFileURL} = require('url');
const puppeteer = require('puppeteer-core');
const pageChecks = require('./report_page_checks.js');
const layoutChecks = require('./report_layout_checks.js');

function usage(message) {
  process.stderr.write(`check_report.js: ${message}\nusage: check_report.js REPORT.html --records N ` +
                       '[--regressions N | --no-regressions] [--charts N] [--literals FILE.json] ' +
                       '[--screenshot OUT.png] [--chromium PATH] [--max-load-ms MS] [--layout] [--edited N]\n');
  process.exit(2);
}

function parseArguments(argv) {
  const options = {chromium: process.env.CHROMIUM || '/usr/bin/chromium', literals: []};
  const integer = (name, text) => {
    if (!/^\d+$/.test(text || '')) usage(`${name} wants a non-negative integer, not '${text}'`);
    return Number(text);
  };
  for (let i = 0; i < argv.length; ++i) {
    const argument = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${argument} wants a value`));
    if (argument === '--records') options.records = integer(argument, value());
    else if (argument === '--regressions') options.regressions = integer(argument, value());
    else if (argument === '--no-regressions') options.regressions = 0;
    else if (argument === '--charts') options.charts = integer(argument, value());
    else if (argument === '--screenshot') options.screenshot = value();
    else if (argument === '--chromium') options.chromium = value();
    else if (argument === '--layout') options.layout = true;
    else if (argument === '--edited') options.edited = integer(argument, value());
    else if (argument === '--max-load-ms') options.maxLoadMs = integer(argument, value());
    else if (argument === '--literals') {
      const file = value();
      try {
        options.literals = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (error) {
        usage(`--literals ${file}: ${error.message}`);
      }
      if (!Array.isArray(options.literals)) usage(`--literals ${file}: expected a JSON array of strings`);
    } else if (argument.startsWith('--')) usage(`unknown option ${argument}`);
    else if (options.report === undefined) options.report = argument;
    else usage(`one report at a time (got '${options.report}' and '${argument}')`);
  }
  if (options.report === undefined) usage('which report? (REPORT.html)');
  if (options.records === undefined) usage('--records N is required');
  if (!fs.existsSync(options.report)) usage(`${options.report}: no such file`);
  return options;
}

// A page that records every console error, page error and request, and lets through only
// the report itself and data: URLs.
async function openPage(browser, url, javascript, failures, label) {
  const page = await browser.newPage();
  await page.setViewport({width: 1280, height: 900});
  await page.setJavaScriptEnabled(javascript);
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const target = request.url();
    if (target === url || target.startsWith('data:')) {
      request.continue();
    } else {
      failures.push(`${label}: the page requested ${target}`);
      request.abort();
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(`${label}: console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => failures.push(`${label}: page error: ${error.message}`));
  return page;
}

// Every failure found, printed at the end even when a check stops with an exception.
const failures = [];

function reportFailures() {
  for (const failure of failures) process.stderr.write(`FAIL ${failure}\n`);
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const url = pathToFileURL(path.resolve(options.report)).href;
  const measured = {report: options.report, bytes: fs.statSync(options.report).size, records: options.records};
  let browser;
  try {
    browser = await puppeteer.launch({
      executablePath: options.chromium,
      headless: true,
      // Root cannot use Chromium's sandbox; containers often have a tiny /dev/shm.
      args: [...(process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : []), '--disable-dev-shm-usage'],
    });
  } catch (error) {
    process.stderr.write(`check_report.js: chromium (${options.chromium}) did not start: ${error.message}\n`);
    process.exit(1);
  }
  try {
    // With the page's script.
    const page = await openPage(browser, url, true, failures, 'with JavaScript');
    const started = Date.now();
    await page.goto(url, {waitUntil: 'load', timeout: 180000});
    measured.loadedMs = Date.now() - started;
    process.stderr.write(`check_report.js: ${options.report} loaded in ${measured.loadedMs} ms\n`);
    const state = await page.evaluate(() => ({
      ready: window.weightspaceReport,
      navigation: performance.getEntriesByType('navigation')[0].toJSON(),
    }));
    measured.domContentLoadedMs = Math.round(state.navigation.domContentLoadedEventEnd);
    measured.loadEventMs = Math.round(state.navigation.loadEventEnd);
    if (state.ready === undefined) {
      failures.push('with JavaScript: the page\'s script did not finish (window.weightspaceReport is not set)');
    } else {
      measured.scriptMs = Math.round(state.ready.scriptMilliseconds);
    }
    if (options.maxLoadMs !== undefined && measured.loadedMs > options.maxLoadMs) {
      failures.push(`with JavaScript: loading took ${measured.loadedMs} ms, more than --max-load-ms ${options.maxLoadMs}`);
    }
    if (options.screenshot) {
      const shotStarted = Date.now();
      // The top of a long page (the header, charts and the first records), in one viewport:
      // rows off screen are not rendered (content-visibility), so no capture beyond it.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewport({width: 1280, height: Math.min(height, 8000)});
      await page.screenshot({path: options.screenshot});
      await page.setViewport({width: 1280, height: 900});
      measured.screenshotMs = Date.now() - shotStarted;
    }
    const timed = async (name, check) => {
      const start = Date.now();
      const result = await check();
      measured[`${name}Ms`] = Date.now() - start;
      process.stderr.write(`check_report.js: ${name} took ${measured[`${name}Ms`]} ms\n`);
      return result;
    };
    const scripted = await timed('structureCheck', () => pageChecks.checkStructure(page, options, true));
    failures.push(...scripted.failures.map((f) => `with JavaScript: ${f}`));
    const charts = await timed('chartCheck', () => pageChecks.checkCharts(page, options.charts));
    failures.push(...charts.map((f) => `charts: ${f}`));
    if (options.layout) {
      const layout = await timed('layoutCheck', () => layoutChecks.checkLayout(page, options.screenshot));
      failures.push(...layout.map((f) => `layout: ${f}`));
    }
    // Sorting and filtering are the script's; without it they would only time out.
    if (state.ready !== undefined) {
      const sorting = await timed('sortCheck', () => pageChecks.checkSorting(page));
      failures.push(...sorting.map((f) => `sorting: ${f}`));
      const filtering = await timed('filterCheck', () => pageChecks.checkFiltering(page));
      failures.push(...filtering.map((f) => `filtering: ${f}`));
    }
    await page.close();

    // Without: the same tables, nothing missing.
    const plain = await openPage(browser, url, false, failures, 'without JavaScript');
    await plain.goto(url, {waitUntil: 'load', timeout: 180000});
    const unscripted = await pageChecks.checkStructure(plain, options, false);
    failures.push(...unscripted.failures.map((f) => `without JavaScript: ${f}`));
    for (const table of Object.keys(scripted.rows)) {
      if (scripted.rows[table] !== unscripted.rows[table]) {
        failures.push(`without JavaScript: ${table} has ${unscripted.rows[table]} rows, ${scripted.rows[table]} with it`);
      }
    }
    measured.tables = scripted.rows;
    await plain.close();
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(measured) + '\n');
  reportFailures();
  process.exit(failures.length > 0 ? 1 : 0);
}

main().catch((error) => {
  reportFailures();
  process.stderr.write(`check_report.js: ${error.stack || error}\n`);
  process.exit(1);
});
