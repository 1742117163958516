// A TCP proxy on loopback between the app and its PostgreSQL, for tests of a database that stops answering: `hang`
// keeps the connections open but passes nothing on (a network partition); `cut` closes them and refuses new ones.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  hang(): void;
  cut(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let hanging = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('data', (data) => hanging || upstream.write(data));
    upstream.on('data', (data) => hanging || client.write(data));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    hang() {
      hanging = true;
    },
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
