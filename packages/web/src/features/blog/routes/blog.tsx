import { labels } from '@furniture/contract';
import { blogPosts } from '../components/blog-posts.ts';

export function BlogRoute() {
  return (
    <section aria-labelledby="blog-title" className="mx-auto max-w-3xl">
      <h1 id="blog-title" className="mb-6 text-3xl font-bold">
        {labels.nav.blog}
      </h1>
      <div className="flex flex-col gap-3">
        {blogPosts.map((post) => (
          <details key={post.question} className="collapse-arrow collapse border border-base-300 bg-base-100">
            <summary className="collapse-title text-lg font-semibold">{post.question}</summary>
            <div className="collapse-content flex flex-col gap-2">
              {post.answer.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}
