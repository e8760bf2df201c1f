package dev.cairn;

/** Placeholder; the full statistics record is assembled with the engine. */
public record Stats(long placeholder) {}
