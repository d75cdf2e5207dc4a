// Preloaded into a bench server (`node --import`, through NODE_OPTIONS) to count the bytes it
// allocates on the V8 heap. Node 20 has no running allocation total (`total_allocated_bytes`
// came with later V8s), so the probe keeps one: V8's heap only grows by allocation and only
// shrinks by GC, hence allocated so far = used heap now + everything GC has freed so far, and
// `v8.GCProfiler` reports the used heap before and after each GC. Off-heap memory (Buffer and
// ArrayBuffer backing stores, sockets' native buffers) is not counted.
//
// On SIGUSR2 the probe writes `{ seq, allocatedBytes }` to $OPENBID_BENCH_ALLOC_DIR/<pid>.json
// (written aside, then renamed, so the bench never reads half a file); the bench signals before
// and after a load and divides the difference by the requests served. Inactive without the
// variable, so the launcher's own short-lived node process is left alone.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GCProfiler, getHeapStatistics } from 'node:v8';

const dir = process.env.OPENBID_BENCH_ALLOC_DIR;
if (dir !== undefined && dir !== '') {
  let profiler = new GCProfiler();
  profiler.start();
  let freed = 0;
  let seq = 0;
  process.on('SIGUSR2', () => {
    // Restarting the profiler at each reading keeps its list of GCs short.
    const { statistics } = profiler.stop();
    profiler = new GCProfiler();
    profiler.start();
    for (const s of statistics) freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
    seq += 1;
    const file = join(dir, `${process.pid}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify({ seq, allocatedBytes: getHeapStatistics().used_heap_size + freed }));
    renameSync(`${file}.tmp`, file);
  });
}
