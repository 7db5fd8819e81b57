// Loaded into the app by bench/tools/attachment-memory.mjs (`node --expose-gc --require` this file, the
// app spawned with an IPC channel): tells garbage from held memory. Answers the tool's messages:
//   {probe: 'gc'}     runs full collections, answers with process.memoryUsage() after them
//   {probe: 'start'}  starts tracking the peaks of memoryUsage()'s fields (sampled every 5 ms); with
//                     PROBE_COLLECT_MS set in the app's environment, also runs a full collection that
//                     often meanwhile, so the peak is what a step holds live, not its garbage as well
//   {probe: 'stop'}   answers with those peaks
// Nothing of this is in the app's own code: without this file the app has no such channel.
'use strict';

if (typeof process.send === 'function') {
  const FIELDS = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'];
  let peaks = null;
  let timer = null;
  const sample = () => {
    const usage = process.memoryUsage();
    for (const field of FIELDS) peaks[field] = Math.max(peaks[field], usage[field]);
  };
  process.on('message', (message) => {
    if (!message || typeof message.probe !== 'string') return;
    if (message.probe === 'gc') {
      if (typeof global.gc !== 'function') {
        process.send({ probe: 'gc', error: 'the app was started without --expose-gc' });
        return;
      }
      // Twice: the first collection's finalisers (Buffers' backing stores) free more on the second.
      global.gc();
      global.gc();
      setTimeout(() => {
        global.gc();
        process.send({ probe: 'gc', usage: process.memoryUsage() });
      }, 50);
    } else if (message.probe === 'start') {
      peaks = Object.fromEntries(FIELDS.map((field) => [field, 0]));
      sample();
      clearInterval(timer);
      const collectEvery = Number(process.env.PROBE_COLLECT_MS) || 0;
      let last = Date.now();
      timer = setInterval(() => {
        if (collectEvery && Date.now() - last >= collectEvery) {
          global.gc();
          last = Date.now();
        }
        sample();
      }, 5);
      process.send({ probe: 'start' });
    } else if (message.probe === 'stop') {
      clearInterval(timer);
      if (peaks) sample();
      process.send({ probe: 'stop', peaks });
    }
  });
  // The channel must not keep the app alive once it is asked to stop.
  process.channel?.unref();
}
