import http from 'node:http';

export interface SseClient {
  close(): void;
}

/**
 * A bounded SSE load generator: raw HTTP on loopback, one socket per stream, no keep-alive pool. Each
 * `data:` line is parsed as JSON (as the documented Python client does); `onNotification` gets the
 * parsed notification with the time it arrived.
 */
export class SseClients {
  private readonly agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  private readonly clients: http.ClientRequest[] = [];
  badDataLines = 0;
  pings = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly onNotification: (data: { entity_id: string }, at: number) => void,
  ) {}

  get size(): number {
    return this.clients.length;
  }

  /** Opens `tokens.length` streams, at most `concurrency` connecting at once; resolves once all answered 200. */
  async open(tokens: string[], concurrency: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < tokens.length) await this.openOne(tokens[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, tokens.length) }, worker));
  }

  private openOne(token: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${this.baseUrl}/api/v1/notifications/stream`, { agent: this.agent, headers: { authorization: `Bearer ${token}` } });
      req.once('error', reject);
      req.once('response', (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        this.clients.push(req);
        let buffer = '';
        let event = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let newline: number;
          while ((newline = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, newline);
            buffer = buffer.slice(newline + 1);
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) {
              let data: unknown;
              try {
                data = JSON.parse(line.slice(6));
              } catch {
                this.badDataLines += 1;
                continue;
              }
              if (event === 'notification') this.onNotification(data as { entity_id: string }, at);
              else this.pings += 1;
            }
          }
        });
        resolve();
      });
    });
  }

  close(): void {
    for (const req of this.clients.splice(0)) req.destroy();
    this.agent.destroy();
  }
}
