// resMonitoring: whether resource monitoring is on. Recorded chain state only: tsibase bills no
// resources yet, so nothing acts on it.

import { SingletonTable, RESOURCE_MONITORING_TABLE } from "./tables";

@fracpack
class ResourceMonitoring {
  constructor(public enabled: bool = false) {}
}

const monitoring = new SingletonTable<ResourceMonitoring>(RESOURCE_MONITORING_TABLE);

export function setResourceMonitoring(enabled: bool): void {
  monitoring.put(new ResourceMonitoring(enabled));
}
