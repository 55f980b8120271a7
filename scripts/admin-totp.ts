/**
 * `npm run admin:totp`: a new secret for the optional second sign-in factor. Put the first line
 * in the site's settings and add the URI to an authenticator app (most accept it pasted, or as a
 * QR code made from it on a trusted machine).
 */
import { newTotpSecret } from '../src/server/services/staff/admin-totp.ts';

const { secret, uri } = newTotpSecret();
console.log(`ADMIN_TOTP_SECRET=${secret}`);
console.log(uri);
