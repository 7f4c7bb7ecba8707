// Which service a host belongs to under the root host the node matched: the first label of a
// `<service>.<root>` subdomain, homepage for the root itself (docs/serving.md §1, §4.2).

export function hostServiceName(host: string, rootHost: string): string {
  return host == rootHost ? "homepage" : host.substring(0, host.length - rootHost.length - 1);
}
