import type { ReactNode } from 'react';
import { Heading } from 'react-aria-components';
import { Button } from '../../../components/ui/button';
import { CloseIcon } from '../../../components/ui/icons';

/** The panel's title and its close button. */
export function DrawerHeading({
  title,
  children,
  onClose,
}: {
  title: string;
  children?: ReactNode;
  onClose: () => void;
}) {
  return (
    <header className="drawer__header">
      <div className="drawer__title-block">
        <Heading slot="title" className="drawer__title">
          {title}
        </Heading>
        {children}
      </div>
      <Button variant="quiet" iconOnly aria-label="Close the details" onPress={onClose}>
        <CloseIcon />
      </Button>
    </header>
  );
}
