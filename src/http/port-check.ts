import net from 'node:net';

/**
 * Fails at once, naming PORT, when the HTTP port cannot be bound: checked before the database is
 * initialised and migrated, so a taken port costs no wait. Port 0 (any free port) is always fine.
 */
export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (err) {
    throw new Error(portProblem(err as NodeJS.ErrnoException, host, port), { cause: err });
  } finally {
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  }
}

function portProblem(err: NodeJS.ErrnoException, host: string, port: number): string {
  if (err.code === 'EADDRINUSE') return `PORT=${port} is already in use on ${host}: stop what listens there, or set PORT to a free port (PORT=0 picks one)`;
  if (err.code === 'EACCES') return `PORT=${port} on ${host} needs privileges this process lacks: set PORT to 1024 or above`;
  if (err.code === 'EADDRNOTAVAIL') return `HOST=${host} is not an address of this machine (PORT=${port})`;
  return `cannot listen on HOST=${host} PORT=${port}: ${err.message}`;
}
