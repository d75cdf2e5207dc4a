import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';
import type { TLSSocket } from 'node:tls';

/** The `.test` names the suite's servers are reached under in the browser. */
export const TEST_HOSTS = ['openbid.test', 'cdn.test', 'bidder.test'] as const;

export interface TestCertificate {
  readonly key: Buffer;
  readonly cert: Buffer;
}

/**
 * A throw-away self-signed certificate for 127.0.0.1, localhost and the `.test` names the
 * browser maps to 127.0.0.1 (`HOST_RESOLVER_RULES`), made now with `openssl req`
 * (nothing is kept: the files are removed once read). The browser is told to accept it (`ignoreHTTPSErrors`).
 */
export const makeTestCertificate = (): TestCertificate => {
  const dir = mkdtempSync(join(tmpdir(), 'openbid-e2e-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', `subjectAltName=IP:127.0.0.1,DNS:localhost,${TEST_HOSTS.map((h) => `DNS:${h}`).join(',')}`, '-keyout', keyFile, '-out', certFile],
      { stdio: 'pipe', timeout: 30_000 },
    );
    return { key: readFileSync(keyFile), cert: readFileSync(certFile) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** A TLS front for a plain-HTTP server, as a load balancer terminating TLS would be. */
export interface TlsProxy {
  readonly port: number;
  /** `https://127.0.0.1:<port>` */
  readonly origin: string;
  /** `https://<host>:<port>`: the same front under a `.test` name, in the browser only. */
  originAs(host: (typeof TEST_HOSTS)[number]): string;
  close(): Promise<void>;
}

/**
 * Terminates TLS on a free 127.0.0.1 port and pipes the bytes to `127.0.0.1:<upstreamPort>`
 * unchanged (HTTP/1.1 only: no ALPN is offered, so the browser does not try HTTP/2). The upstream
 * need not be listening yet: each connection dials it when it arrives.
 */
export const startTlsProxy = async (upstreamPort: number, certificate: TestCertificate): Promise<TlsProxy> => {
  const sockets = new Set<Socket | TLSSocket>();
  const track = (s: Socket | TLSSocket): void => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  };
  const server = createServer({ key: certificate.key, cert: certificate.cert }, (client) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    track(client);
    track(upstream);
    // Either side failing ends both: a half-open pipe would leave the browser waiting.
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  // Handshake failures (a client that gives up) are not the test's business.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    origin: `https://127.0.0.1:${port}`,
    originAs: (host) => `https://${host}:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
