import http from 'node:http';

// The baseline: a bare Node http server answering a fixed JSON of the calculator's size.
const body = JSON.stringify({
  song: { title: 'Aurora Drive', difficulty: 'ANOTHER', difficultyLevel: 12, notes: 2080 },
  bpi: 42.17,
  rank: { estimatedRank: 98, bpimRank: null, bpimTotal: null },
  metadata: { version: '33', arenaAverages: null },
});
http
  .createServer((req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  })
  .listen(Number(process.env.PORT ?? 4100), process.env.HOST ?? '127.0.0.1');
