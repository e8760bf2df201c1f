package dev.cairn.db.base;

/**
 * How any part of the engine asks for background work; {@link BackgroundWork} answers. The engine
 * context is built before the background work (which needs the compactions, which need the
 * context), so the answer is bound once, at open, before the opener first takes the mutex: every
 * request requires the mutex, so every requester sees the binding.
 */
public final class BackgroundRequests {
  /** What answers the requests. */
  public interface Handler {
    public void maybeScheduleBackgroundWork();

    public void collectObsoleteFiles(boolean force);
  }

  private Handler handler;

  /** Binds the handler; once, at open. */
  public void bind(Handler h) {
    if (handler != null) {
      throw new IllegalStateException("background work is bound already");
    }
    handler = h;
  }

  /** Requires: mutex held. Starts a flush and as many compactions as the picker and threads allow. */
  public void maybeScheduleBackgroundWork() {
    handler.maybeScheduleBackgroundWork();
  }

  /**
   * Requires: mutex held (released while files are deleted, held again on return). Deletes
   * unreferenced files, in batches or all when {@code force}.
   */
  public void collectObsoleteFiles(boolean force) {
    handler.collectObsoleteFiles(force);
  }
}
