// The upstream of the execute benchmark: answers every POST with the JSON it received. Prints its URL on stdout.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = chunks.length > 0 ? Buffer.concat(chunks) : Buffer.from('{}');
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
