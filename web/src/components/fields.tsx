// Form fields several pages share: a one-line form, a select of named things, checkboxes for a list of options.
import type { ReactNode } from 'react';

/** A form on one line; `onSubmit` runs instead of the browser's own submit (no page load). */
export function InlineForm({ onSubmit, className, children }: { onSubmit: () => void; className?: string; children: ReactNode }) {
  return (
    <form
      className={className ? `inline-form ${className}` : 'inline-form'}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A select of named things by id, after a first option (value '') for none of them. */
export function NamedSelect({
  items,
  value,
  none,
  label,
  onChange,
  disabled,
}: {
  items: readonly { id: string; name: string }[] | undefined;
  value: string;
  none: string;
  label?: string;
  onChange: (id: string) => void;
  disabled?: boolean;
}) {
  return (
    <select aria-label={label} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
      <option value="">{none}</option>
      {items?.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </select>
  );
}

interface CheckboxesProps<T extends string> {
  options: readonly T[];
  /** The options checked; a newly checked one goes last. */
  checked: readonly T[];
  onChange: (checked: T[]) => void;
  /** Smaller labels, for a dense form. */
  small?: boolean;
}

/** A checkbox for each option. */
export function Checkboxes<T extends string>({ options, checked, onChange, small = false }: CheckboxesProps<T>) {
  return options.map((option) => (
    <label key={option} className={small ? 'check small' : 'check'}>
      <input
        type="checkbox"
        checked={checked.includes(option)}
        onChange={(e) => onChange(e.target.checked ? [...checked, option] : checked.filter((x) => x !== option))}
      />
      {option}
    </label>
  ));
}

/** Checkboxes in a fieldset under a legend. */
export function CheckboxGroup<T extends string>({
  legend,
  className,
  ...boxes
}: CheckboxesProps<T> & { legend: ReactNode; className?: string }) {
  return (
    <fieldset className={className}>
      <legend>{legend}</legend>
      <Checkboxes {...boxes} />
    </fieldset>
  );
}
