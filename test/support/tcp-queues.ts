import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** The send and receive queues (bytes) of the IPv4 TCP socket from `localPort` to `remotePort`. */
const queuesOf = (localPort: number, remotePort: number): { tx: number; rx: number } | undefined => {
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue …, addresses and queues in hex.
    const [, local = '', remote = '', , queues = ''] = line.trim().split(/\s+/);
    if (parseInt(local.split(':')[1] ?? '', 16) !== localPort || parseInt(remote.split(':')[1] ?? '', 16) !== remotePort) continue;
    const [tx = '', rx = ''] = queues.split(':');
    return { tx: parseInt(tx, 16), rx: parseInt(rx, 16) };
  }
  return undefined;
};

/**
 * Resolves once the process at the other end of `socket` (a server on this host, over IPv4) has
 * read every byte written to `socket`, or rejects after `timeoutMs`. It watches the kernel's
 * queues (`/proc/net/tcp`, Linux): nothing left unacknowledged on the client's side, nothing
 * left unread on the server's. For a test where something must happen only after the server has
 * seen a request (a signal, say), however long a loaded machine takes to get to it.
 */
export const untilPeerHasRead = async (socket: Socket, timeoutMs = 10_000): Promise<void> => {
  const { localPort, remotePort } = socket;
  if (localPort === undefined || remotePort === undefined) throw new Error('the socket is not connected');
  const until = Date.now() + timeoutMs;
  for (;;) {
    const client = queuesOf(localPort, remotePort);
    const server = queuesOf(remotePort, localPort);
    if (socket.writableLength === 0 && client?.tx === 0 && server?.rx === 0) return;
    if (Date.now() > until) {
      throw new Error(`the server had not read everything after ${String(timeoutMs)} ms: client ${JSON.stringify(client)}, server ${JSON.stringify(server)}`);
    }
    await sleep(5);
  }
};
