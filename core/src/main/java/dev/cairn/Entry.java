package dev.cairn;

/** A key and its value, as returned by {@link Cairn#scan}. */
public record Entry(byte[] key, byte[] value) {}
