import { StreamLab } from '@/components/StreamLab';

/** Stream Lab's only page; all of it is live data, owned by the client component. */
export default function Page() {
  return <StreamLab />;
}
