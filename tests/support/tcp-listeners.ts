/**
 * Plain TCP servers on this machine for the outbound-address tests: one that counts every connection
 * made to it (on every local address, IPv4 and IPv6), and one that accepts and never answers.
 */
import net from 'node:net';

export interface TcpListener {
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  stop(): Promise<void>;
}

async function listen(onSocket: (s: net.Socket) => void): Promise<TcpListener> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  // Dual-stack on every address: 127.0.0.1, 0.0.0.0, ::1 and :: all arrive here.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Counts connections and closes each at once. */
export const startConnectionRecorder = () => listen((socket) => socket.destroy());

/** Accepts connections and never sends a byte (a silent port: a firewall black hole, a hung server). */
export const startSilentServer = () =>
  listen((socket) => {
    socket.resume();
  });

/**
 * Forwards every connection to `targetPort` on 127.0.0.1, holding each chunk of the answer back by
 * `delayMs` (in order): a server that works, slowly.
 */
export const startDelayingProxy = (targetPort: number, delayMs: number) =>
  listen((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    let last = Promise.resolve();
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      last = last.then(
        () =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              if (!client.destroyed) client.write(chunk);
              resolve();
            }, delayMs),
          ),
      );
    });
    upstream.on('end', () => void last.then(() => client.end()));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
