// The floor of the execute benchmark: the same job as the benchmarked workflow — receive a JSON POST, POST it to the
// upstream, answer with the upstream's JSON — in plain node:http with undici and nothing else. Prints its URL.
import { createServer } from 'node:http';
import { Agent, request } from 'undici';

const upstream = process.env.UPSTREAM_URL;
const dispatcher = new Agent({ connections: 64 });
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const up = await request(`${upstream}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
      dispatcher,
    });
    const data = await up.body.json();
    const body = JSON.stringify({ result: data });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
