import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** Successful reads are what clients poll (task progress, dataset status): debug, so they do not flood the log. */
export function requestLogLevel(method: string, statusCode: number): 'debug' | 'info' {
  return (method === 'GET' || method === 'HEAD') && statusCode < 400 ? 'debug' : 'info';
}

/** One line per request, when it is answered, instead of fastify's two ("incoming", "completed") at info. */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    request.log[requestLogLevel(request.method, reply.statusCode)](
      { req: request, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime * 10) / 10 },
      'request',
    );
  }
}
