/** The one error type the HTTP layer turns into `{"detail": ...}` with `status`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

/** The catalogue: every error the service raises comes from here, so codes and texts stay consistent. */
export const errors = {
  notAuthenticated: () => new AppError(401, 'Not authenticated'),
  invalidToken: (why: string) => new AppError(401, `Invalid token: ${why}`),
  invalidCredentials: () => new AppError(401, 'Invalid api_key or api_secret'),

  datasetNotFound: () => new AppError(404, 'Dataset not found'),
  userNotFound: (email: string) => new AppError(404, `User not found: ${email}`),
  taskNotFound: () => new AppError(404, 'Task not found'),
  accessNotFound: (email: string) => new AppError(404, `${email} has no shared access to this dataset`),

  forbidden: (action: string) => new AppError(403, `You do not have permission to ${action} this dataset`),

  missingParameter: (name: string) => new AppError(400, `Missing required parameter: ${name}`),
  invalidParameter: (detail: string) => new AppError(400, detail),
  userExists: (email: string) => new AppError(409, `A user with e-mail ${email} already exists`),
  ownerAlreadyHasAccess: () => new AppError(400, 'The dataset owner already has full access'),

  taskNotAbortable: (why: string) => new AppError(409, `Task cannot be aborted: ${why}`),
  taskNotRetryable: (why: string) => new AppError(400, `Task cannot be retried: ${why}`),

  validation: (detail: string) => new AppError(422, detail),
  notReady: (why: string) => new AppError(503, why),
} as const;
