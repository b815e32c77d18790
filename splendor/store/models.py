"""The store's tables, as SQLAlchemy models. Changing them needs a migration in ``migrations/versions``."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, UniqueConstraint, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    """The models' common base."""


class Profile(Base):
    """A player known by name across games (the owner of a Pokédex)."""

    __tablename__ = "profiles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    marks: Mapped[list[PokedexMark]] = relationship(back_populates="profile", cascade="all, delete-orphan")


class PokedexMark(Base):
    """One Pokémon marked on a profile's Pokédex: when first caught, and in how many games."""

    __tablename__ = "pokedex_marks"
    __table_args__ = (UniqueConstraint("profile_id", "pokemon"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False)
    pokemon: Mapped[str] = mapped_column(String(40), nullable=False)
    first_caught_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    games: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    profile: Mapped[Profile] = relationship(back_populates="marks")
