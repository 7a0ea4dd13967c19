// Which Sites a legacy user may call.

import type { UserDefinition } from "../../../store/model";

export function userMayCall(user: UserDefinition, site: string): boolean {
  return user.sites === "*" || user.sites.includes(site);
}
