import { uiTexts } from '@furniture/contract';
import { useNavigation } from 'react-router';

/** A thin bar across the top while a route and its data load. */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div className="fixed inset-x-0 top-0 z-50" role="status">
      <progress className="progress progress-primary block h-1 w-full rounded-none" aria-label={uiTexts.shell.loadingPage} />
    </div>
  );
}
