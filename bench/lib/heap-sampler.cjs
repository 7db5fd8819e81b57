// Where the garbage comes from: load it into the app with
//   BENCH_APP_NODE_ARGS="--require ./bench/lib/heap-sampler.cjs" HEAP_SAMPLE_FILE=/tmp/app.heapprofile
// and V8's sampling heap profiler runs from HEAP_SAMPLE_DELAY_MS (default 6000: after start-up) until
// the app exits, keeping the samples of objects the garbage collector has since collected as well
// (`--heap-prof` keeps only what is alive at exit, which on a server is start-up's memory, not the
// garbage a request makes). `tools/heap-top.mjs` reads the file. Nothing of this is in the app's code.
'use strict';

const file = process.env.HEAP_SAMPLE_FILE;
if (file) {
  const inspector = require('node:inspector');
  const fs = require('node:fs');
  const session = new inspector.Session();
  session.connect();
  let sampling = false;
  const options = {
    samplingInterval: Number(process.env.HEAP_SAMPLE_INTERVAL ?? 512),
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  };
  setTimeout(
    () =>
      session.post('HeapProfiler.startSampling', options, (error) => {
        if (error) console.error(`heap sampler: ${error.message}`);
        else sampling = true;
      }),
    Number(process.env.HEAP_SAMPLE_DELAY_MS ?? 6000),
  ).unref();
  // An in-process inspector session answers synchronously, so this runs to the end inside 'exit'.
  process.on('exit', () => {
    if (!sampling) return;
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) console.error(`heap sampler: ${error.message}`);
      else fs.writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}
