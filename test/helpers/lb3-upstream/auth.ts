import { type Lb3, bodyArg, httpError as error, optionsArg, reqArg } from './state.ts';

/*
 * Sign-in as a LoopBack 3 project would build it on the built-in User and AccessToken models: Coach extends User,
 * CoachToken extends AccessToken, and an `Auth` model without a data source carries the /auth remote methods, which
 * call User.login, User.logout, User.changePassword, User.resetPassword and User.setPassword.
 */

const TTL = 1_209_600;

/** The page's origin as the browser sees it behind the gateway, for the links in mails. */
export const originOf = (req: any) => `${req.get('x-forwarded-proto') ?? req.protocol}://${req.get('x-forwarded-host') ?? req.get('host')}`;

/** Mails the coach a reset link whose token LoopBack gives only the `reset-password` scope. */
export async function mailResetLink(lb: Lb3, email: string, origin: string): Promise<void> {
  try {
    await lb.models.Coach.resetPassword({ email, origin });
  } catch (cause: any) {
    // An unknown address is LoopBack's 404 EMAIL_NOT_FOUND; the product always answers the same.
    if (cause?.code !== 'EMAIL_NOT_FOUND') throw cause;
  }
}

/** `admin` and `healthManager`: dynamic roles from the coach's flags, for the models' ACLs. */
export function registerRoles(lb: Lb3): void {
  const { Role, Coach } = lb.models;
  const byFlags = (test: (coach: any) => boolean) => (_role: string, context: any, callback: (error: Error | null, yes?: boolean) => void) => {
    const userId = context.accessToken?.userId;
    if (userId == null) return process.nextTick(() => callback(null, false));
    Coach.findById(userId).then((coach: any) => callback(null, Boolean(coach && test(coach))), callback);
  };
  Role.registerResolver(
    'admin',
    byFlags((coach) => coach.isAdmin || coach.isSuperAdmin),
  );
  Role.registerResolver(
    'healthManager',
    byFlags((coach) => coach.isAdmin || coach.isSuperAdmin || coach.isHealthManager),
  );
}

export function defineAuth(app: any, lb: Lb3): void {
  const { Coach, CoachToken } = lb.models;
  Coach.on('resetPasswordRequest', (info: any) => {
    lb.outbox.push({ to: info.email, link: `${info.options.origin}/reset-password?access_token=${info.accessToken.id}`, at: Date.now() });
  });
  const Auth = app.registry.createModel({ name: 'Auth', base: 'Model', plural: 'auth' });
  app.model(Auth, { dataSource: null, public: true });
  Auth.settings.acls = [
    { principalType: 'ROLE', principalId: '$everyone', permission: 'DENY' },
    { principalType: 'ROLE', principalId: '$authenticated', permission: 'ALLOW' },
    { principalType: 'ROLE', principalId: '$everyone', permission: 'ALLOW', property: ['login', 'forgotPassword'] },
  ];
  const coachOf = async (options: any) => {
    const coach = await Coach.findById(options.accessToken?.userId);
    if (!coach) throw error(401, 'Authorization Required', 'AUTHORIZATION_REQUIRED');
    return coach;
  };

  Auth.login = async (data: any) => {
    const token = await Coach.login({ email: String(data?.email ?? '').toLowerCase(), password: data?.password, ttl: TTL }, 'user');
    if (token.toJSON().user?.isUserLocked) {
      await CoachToken.destroyById(token.id);
      throw error(403, 'Account is locked', 'USER_LOCKED');
    }
    return token;
  };
  Auth.remoteMethod('login', { http: { verb: 'post', path: '/login' }, accepts: [bodyArg], returns: { arg: 'token', type: 'object', root: true } });

  Auth.logout = async (options: any) => {
    await Coach.logout(options.accessToken.id);
  };
  Auth.remoteMethod('logout', { http: { verb: 'post', path: '/logout' }, accepts: [optionsArg] });

  Auth.me = coachOf;
  Auth.remoteMethod('me', { http: { verb: 'get', path: '/me' }, accepts: [optionsArg], returns: { arg: 'coach', type: 'Coach', root: true } });

  Auth.updatePassword = async (data: any, options: any) => {
    await Coach.changePassword(options.accessToken.userId, data?.oldPassword, data?.newPassword);
  };
  Auth.remoteMethod('updatePassword', { http: { verb: 'patch', path: '/me/update-password' }, accepts: [bodyArg, optionsArg] });

  // Only a reset token's scope reaches this method, and that token reaches nothing else.
  Auth.setPassword = async (data: any, options: any) => {
    await Coach.setPassword(options.accessToken.userId, data?.password);
    await CoachToken.destroyById(options.accessToken.id);
  };
  Auth.remoteMethod('setPassword', { http: { verb: 'post', path: '/me/set-password' }, accepts: [bodyArg, optionsArg], accessScopes: ['reset-password'] });

  Auth.forgotPassword = async (data: any, req: any) => {
    await mailResetLink(lb, String(data?.email ?? '').toLowerCase(), originOf(req));
  };
  Auth.remoteMethod('forgotPassword', { http: { verb: 'post', path: '/forgot-password' }, accepts: [bodyArg, reqArg] });
}
