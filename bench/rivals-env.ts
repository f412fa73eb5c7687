// Imported first by bench/rivals.ts: the rivals scale set lives in its own database unless told
// otherwise (bench/lib.ts reads BENCH_SCALE_DB when it is loaded).
process.env.BENCH_SCALE_DB ??= 'bpigraph_bench_rivals';
export {};
