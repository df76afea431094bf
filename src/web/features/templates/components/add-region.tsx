import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { PlusIcon } from '../../../components/ui/icons';
import { Select } from '../../../components/ui/select';
import { insertPlaces } from './template-values';

/**
 * "Add region" and where it goes: between two regions, at the top or at the end. Unless the person chooses, the
 * place is `defaultIndex` (before the footer).
 */
export function AddRegion({
  names,
  defaultIndex,
  isDisabled,
  onAdd,
}: {
  /** The regions' names in order. */
  names: readonly string[];
  defaultIndex: number;
  isDisabled: boolean;
  onAdd: (index: number) => void;
}) {
  // The place chosen, while it is one; the default otherwise (and again after each addition).
  const [chosen, setChosen] = useState<number | null>(null);
  const places = insertPlaces(names);
  const index = chosen !== null && chosen <= names.length ? chosen : defaultIndex;
  return (
    <div className="add-region">
      <Select
        label="Where the new region goes"
        options={places.map((p) => ({ id: String(p.index), label: p.label }))}
        value={String(index)}
        onChange={(v) => setChosen(Number(v))}
        isDisabled={isDisabled}
      />
      <Button
        isDisabled={isDisabled}
        onPress={() => {
          setChosen(null);
          onAdd(index);
        }}
      >
        <PlusIcon /> Add region
      </Button>
    </div>
  );
}
