// SPDX-License-Identifier: GPL-3.0-or-later
// The HTML report's own script, inlined into every report after Chart.js: draws the charts
// from the JSON in #report-data, makes every table.sortable sortable by a click on a header,
// and filters the records table. The tables are complete without it.
(function () {
  'use strict';
  const started = performance.now();
  const data = JSON.parse(document.getElementById('report-data').textContent);
  // Tableau 10, distinguishable also for the common colour-vision deficiencies, with its grey
  // swapped for a teal: grey is the axes' colour.
  const palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7',
                   '#9c755f', '#499894'];

  // One colour per game/source, the same in every chart.
  const colours = new Map();
  function colour(key) {
    if (!colours.has(key)) colours.set(key, palette[colours.size % palette.length]);
    return colours.get(key);
  }
  data.histograms.forEach((h) => colour(h.game + '/' + h.source));

  function significant(value, digits) {
    return Number(value.toPrecision(digits)).toString();
  }
  function si(value) {
    const prefixes = [[1e12, ' T'], [1e9, ' G'], [1e6, ' M'], [1e3, ' k']];
    for (const [scale, prefix] of prefixes) {
      if (Math.abs(value) >= scale) return significant(value / scale, 3) + prefix;
    }
    return significant(value, 3);
  }
  function axis(title, extra) {
    return Object.assign({title: {display: title !== '', text: title}}, extra || {});
  }
  // animation off: the page draws once, at once, and a screenshot shows the final chart.
  // offset: points sit in the middle of their category, not on the axis (one run's point).
  function options(xTitle, yTitle, yExtra, legend, xExtra) {
    return {
      animation: false, responsive: true, maintainAspectRatio: false,
      plugins: {legend: {display: legend}},
      scales: {x: axis(xTitle, Object.assign({offset: true}, xExtra || {})), y: axis(yTitle, yExtra)},
    };
  }

  // A trend of one run has no line to draw: its values are bars, one per series.
  function oneRunBars(labels, values, colours, yTitle, yExtra) {
    return {
      type: 'bar',
      data: {labels, datasets: [{label: 'this run', data: values, backgroundColor: colours}]},
      options: options('', yTitle, yExtra, false),
    };
  }
  // Each series scaled to its own range (lowest mean 0, highest 1), so that series with small
  // means do not lie on top of each other near zero; the tooltips keep the real values.
  function ownScale(values) {
    const present = values.filter((v) => v !== null);
    const low = Math.min(...present), high = Math.max(...present);
    return values.map((v) => (v === null ? null : high > low ? (v - low) / (high - low) : 0.5));
  }
  // The grading's thread count, when every run with a throughput used the same one.
  function threadCount(t) {
    const counts = new Set(t.runs.filter((r, i) => t.throughput[i] !== null).map((r) => r.threads));
    return counts.size === 1 ? [...counts][0] : null;
  }

  const builders = {
    histogram(index) {
      const h = data.histograms[index];
      return {
        type: 'bar',
        data: {
          labels: h.bins.map((b) => b.from === b.to ? significant(b.from, 4)
                                                   : significant(b.from, 3) + '–' + significant(b.to, 3)),
          datasets: [{label: 'answers', data: h.bins.map((b) => b.count), backgroundColor: colour(h.game + '/' + h.source),
                      barPercentage: 1, categoryPercentage: 1}],
        },
        // Labels level, and as many as fit without touching: with 20 bins the ranges would
        // overlap (the tooltip names every bin's range).
        options: options('normalised score', 'answers', {beginAtZero: true, ticks: {precision: 0}}, false,
                         {ticks: {maxRotation: 0, autoSkip: true, autoSkipPadding: 8}}),
      };
    },
    'trend-score'(index, canvas) {
      const t = data.trend;
      if (t.runs.length === 1) {
        return oneRunBars(t.series.map((s) => s.label), t.series.map((s) => s.values[0]),
                          t.series.map((s) => colour(s.label)), 'mean normalised score', {beginAtZero: true});
      }
      const own = canvas.dataset.scale === 'own';
      return {
        type: 'line',
        data: {
          labels: t.runs.map((r) => '#' + r.id),
          datasets: t.series.map((s) => ({label: s.label, data: own ? ownScale(s.values) : s.values, spanGaps: true,
                                          borderColor: colour(s.label), backgroundColor: colour(s.label)})),
        },
        options: Object.assign(
            options('run', own ? 'mean, own scale (0 lowest, 1 highest)' : 'mean normalised score',
                    own ? {min: 0, max: 1} : {}, true),
            own ? {plugins: {legend: {display: true}, tooltip: {callbacks: {label: (item) =>
              item.dataset.label + ': ' + significant(t.series[item.datasetIndex].values[item.dataIndex], 4)}}}} : {}),
      };
    },
    'trend-throughput'() {
      const t = data.trend;
      const threads = threadCount(t);
      const yTitle = 'grading steps/s' + (threads === null ? '' : ', ' + threads + ' thread' + (threads === 1 ? '' : 's'));
      const yExtra = {beginAtZero: true, ticks: {callback: si}};
      if (t.runs.length === 1) return oneRunBars(['#' + t.runs[0].id], t.throughput, [palette[0]], yTitle, yExtra);
      return {
        type: 'line',
        data: {
          labels: t.runs.map((r) => '#' + r.id),
          datasets: [{label: 'grading steps/s', data: t.throughput, spanGaps: true, borderColor: palette[0],
                      backgroundColor: palette[0]}],
        },
        options: Object.assign(options('run', yTitle, yExtra, false), {plugins: {legend: {display: false}, tooltip: {
          callbacks: {label: (item) => si(item.parsed.y) + ' steps/s, ' + t.runs[item.dataIndex].threads + ' threads'}}}}),
      };
    },
    speed() {
      // Against perfect scaling from the fewest threads measured, to see what more cores bring.
      const points = data.speed.slice().sort((a, b) => a.threads - b.threads);
      const base = points[0];
      return {
        type: 'line',
        data: {
          labels: points.map((p) => String(p.threads)),
          datasets: [
            {label: 'measured', data: points.map((p) => p.steps_per_second), borderColor: palette[0],
             backgroundColor: palette[0]},
            {label: 'linear scaling', data: points.map((p) => base.steps_per_second * p.threads / base.threads),
             borderColor: '#8c959f', backgroundColor: '#8c959f', borderDash: [6, 4], pointRadius: 0},
          ],
        },
        options: options('threads', 'steps per second', {beginAtZero: true, ticks: {callback: si}}, true),
      };
    },
  };

  // A chart that cannot be drawn is reported and skipped: the tables stay sortable.
  let charts = 0;
  for (const canvas of document.querySelectorAll('canvas[data-chart]')) {
    try {
      const build = builders[canvas.dataset.chart];
      if (!build) throw new Error('no chart of kind ' + canvas.dataset.chart);
      new Chart(canvas, build(Number(canvas.dataset.index), canvas));
      ++charts;
    } catch (error) {
      console.error('report: chart ' + canvas.dataset.chart + '[' + canvas.dataset.index + ']: ' + error.message);
    }
  }

  // The score trend's "each series on its own scale" switch redraws that chart.
  const ownScaleSwitch = document.getElementById('trend-own-scale');
  if (ownScaleSwitch) {
    const canvas = document.querySelector('canvas[data-chart="trend-score"]');
    ownScaleSwitch.addEventListener('change', () => {
      canvas.dataset.scale = ownScaleSwitch.checked ? 'own' : '';
      const chart = Chart.getChart(canvas);
      if (chart) chart.destroy();
      new Chart(canvas, builders['trend-score'](0, canvas));
    });
    ownScaleSwitch.parentElement.hidden = false;
  }

  // Filtering the records: text (any cell, case-insensitive), errors only, changed only.
  // A body left with no row is hidden too. A body off screen is not laid out (report.css:
  // content-visibility) and takes the height it last had on screen; while a filter is on,
  // it takes its shown rows' estimated height instead, so the page's height matches what
  // is shown without laying out every body.
  const records = document.getElementById('records-table');
  const controls = document.getElementById('records-filter');
  const text = document.getElementById('filter-text');
  const errorsOnly = document.getElementById('filter-errors');
  const changedOnly = document.getElementById('filter-changed');
  const count = document.getElementById('filter-count');
  const rowText = new WeakMap();
  function applyFilter() {
    const needle = text.value.trim().toLowerCase();
    let shown = 0, total = 0;
    for (const body of records.tBodies) {
      let shownHere = 0;
      for (const row of body.rows) {
        let visible = !(errorsOnly.checked && !row.classList.contains('err')) &&
                      !(changedOnly.checked && !row.classList.contains('changed'));
        if (visible && needle !== '') {
          let haystack = rowText.get(row);
          if (haystack === undefined) rowText.set(row, haystack = row.textContent.toLowerCase());
          visible = haystack.includes(needle);
        }
        if (row.hidden === visible) row.hidden = !visible;
        if (visible) ++shownHere;
      }
      if (body.hidden !== (shownHere === 0 && body.rows.length > 0)) body.hidden = !body.hidden;
      const size = shownHere === body.rows.length ? '' : '0 ' + (shownHere * 2.9).toFixed(1) + 'rem';
      if (body.style.containIntrinsicSize !== size) body.style.containIntrinsicSize = size;
      shown += shownHere;
      total += body.rows.length;
    }
    count.textContent = 'showing ' + shown.toLocaleString('en') + ' of ' + total.toLocaleString('en') + ' records';
    // What was applied, for a test to wait on (typing is debounced).
    count.dataset.filter = needle;
  }

  // Sorting: a click on a header sorts by that column, ascending, then descending. Cells are
  // read once per column; empty cells go last either way.
  function sortKeys(rows, column, numeric) {
    return rows.map((row) => {
      const cell = row.cells[column];
      // A cell shows a rounded number and holds the exact one in its title.
      const shown = cell ? (numeric && cell.title) || cell.textContent : '';
      if (shown === '') return null;
      if (!numeric) return shown;
      const value = Number(shown.replace(/,/g, '').replace(/ ([kMGT])$/, (m, p) => ({k: 'e3', M: 'e6', G: 'e9', T: 'e12'})[p]));
      return Number.isNaN(value) ? null : value;
    });
  }
  function makeSortable(table) {
    const bodies = Array.from(table.tBodies);
    // Every body but the last holds the same number of rows; sorting keeps it so.
    const perBody = Math.max(1, bodies[0].rows.length);
    const rows = bodies.flatMap((body) => Array.from(body.rows));  // in the page's order
    const keys = [];  // per column, computed at its first sort
    const headers = Array.from(table.tHead.rows[0].cells);
    headers.forEach((header, column) => {
      header.classList.add('sortable-header');
      header.tabIndex = 0;
      const numeric = header.dataset.type === 'num';
      const sort = () => {
        const descending = header.getAttribute('aria-sort') === 'ascending';
        const key = keys[column] || (keys[column] = sortKeys(rows, column, numeric));
        const collator = new Intl.Collator(undefined, {numeric: true});
        const order = rows.map((row, i) => i);
        order.sort((a, b) => {
          const x = key[a], y = key[b];
          if (x === null || y === null) return (x === null) - (y === null);
          const c = numeric ? x - y : collator.compare(x, y);
          return descending ? -c : c;
        });
        // Emptied all at once, then filled a slice at a time: for 10^5 rows, a third of the
        // time of moving rows one by one (and the bodies stay in the page, whose layout of
        // the bodies off screen content-visibility still skips).
        bodies.forEach((body) => body.replaceChildren());
        bodies.forEach((body, b) => {
          const end = Math.min(order.length, (b + 1) * perBody);
          for (let at = b * perBody; at < end; at += 1000) {
            body.append(...order.slice(at, Math.min(end, at + 1000)).map((i) => rows[i]));
          }
        });
        headers.forEach((h) => h.removeAttribute('aria-sort'));
        header.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
        if (table === records) applyFilter();  // rows changed bodies: hide the empty ones again
      };
      header.addEventListener('click', sort);
      header.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); sort(); }
      });
    });
  }
  document.querySelectorAll('table.sortable').forEach(makeSortable);

  let pending = 0;
  text.addEventListener('input', () => { clearTimeout(pending); pending = setTimeout(applyFilter, 120); });
  errorsOnly.addEventListener('change', applyFilter);
  changedOnly.addEventListener('change', applyFilter);
  controls.hidden = false;
  applyFilter();

  // For the browser test and for anyone timing the page.
  window.weightspaceReport = {charts: charts, scriptMilliseconds: performance.now() - started};
})();
