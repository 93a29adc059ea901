/**
 * The bound resources whose folder is missing, so the inspector marks them and offers to fix the
 * location before a plan is provisioned from them. Asked fresh for each binding outcome (a folder
 * moved since the resources screen was open is found too).
 */
import { useEffect, useState } from 'react';
import type { ResourceListItem } from '../../../../shared/dto.ts';
import type { BindingResult } from '../../../../shared/model.ts';
import { api } from '../../api/index.ts';
import { boundIds } from './binding-fixes.ts';

/** The bound resources whose location is missing. */
export function useMissingBound(results: BindingResult[] | null, resources: ResourceListItem[]): ResourceListItem[] {
  const [missingIds, setMissingIds] = useState<string[]>([]);
  useEffect(() => {
    const ids = boundIds(results);
    if (ids.length === 0) return setMissingIds([]);
    let live = true;
    api.resourceStatuses({ ids }).then(
      (statuses) => live && setMissingIds(statuses.filter((s) => s.locationMissing).map((s) => s.resourceId)),
      () => live && setMissingIds([]),
    );
    return () => {
      live = false;
    };
  }, [results]);
  return resources.filter((r) => missingIds.includes(r.id));
}
