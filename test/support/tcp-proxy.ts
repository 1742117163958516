// A TCP proxy on loopback between the app and a server it depends on (its PostgreSQL, an S3 endpoint), for tests of a
// server that stops answering: `hang` keeps the connections open but passes nothing on (a network partition);
// `holdAnswers` passes the requests on but drops what comes back (the server did the work, the client never hears of
// it); `hangAt(text)` passes everything until a client sends bytes holding `text`, then hangs as `hang` does (a server
// that stops answering at a given statement); `resume` passes everything again (on new connections: bytes dropped
// meanwhile are lost); `cut` closes them and refuses new ones for good; `down` resets them and every new one until `up`
// (an outage that ends).
import net from 'node:net';

export interface TcpProxy {
  port: number;
  hang(): void;
  hangAt(text: string): void;
  holdAnswers(): void;
  resume(): void;
  cut(): Promise<void>;
  down(): void;
  up(): void;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let passRequests = true;
  let passAnswers = true;
  let isDown = false;
  let hangAtText: Buffer | undefined;
  const server = net.createServer((client) => {
    if (isDown) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('data', (data: Buffer) => {
      if (hangAtText && data.includes(hangAtText)) passRequests = passAnswers = false;
      if (passRequests) upstream.write(data);
    });
    upstream.on('data', (data) => passAnswers && client.write(data));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    hang() {
      passRequests = passAnswers = false;
    },
    hangAt(text) {
      hangAtText = Buffer.from(text);
    },
    holdAnswers() {
      passAnswers = false;
    },
    resume() {
      hangAtText = undefined;
      passRequests = passAnswers = true;
    },
    down() {
      isDown = true;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    up() {
      isDown = false;
    },
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
